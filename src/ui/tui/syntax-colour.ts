/**
 * A small syntax colourer for code blocks of answers: keywords, strings,
 * comments and numbers, which is most of what makes code readable at a
 * glance. Not a parser: a wrong colour is harmless, a slow one is not, so
 * it is one regular expression pass per line. Languages without C-like or
 * shell-like syntax get keywords and strings only.
 */

/** How each kind of token is painted; no painter means no colour. */
export interface CodePainters {
  keyword(text: string): string;
  string(text: string): string;
  comment(text: string): string;
  number(text: string): string;
}

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue def default defer del do elif else enum except export extends false final finally fn for from func function go if impl import in interface is lambda let loop match mod mut new nil none not null or package pass private protected pub public raise return self static struct super switch then this throw true try type typeof undefined use var void when where while with yield " +
    "echo fi esac done local readonly"
  ).split(" "),
);

const HASH_COMMENT = new Set([
  "sh",
  "bash",
  "zsh",
  "shell",
  "python",
  "py",
  "ruby",
  "rb",
  "yaml",
  "yml",
  "toml",
  "make",
  "makefile",
  "dockerfile",
  "r",
  "perl",
]);

/** `code` split into lines, each coloured (or left as is without painters). */
export function highlightCode(code: string, lang: string | undefined, paint?: CodePainters): string[] {
  const lines = code.split("\n");
  if (!paint) return lines;
  const hash = HASH_COMMENT.has((lang ?? "").toLowerCase());
  const comment = hash ? "#.*$" : "//.*$|#!.*$";
  const token = new RegExp(
    `(${comment})|("(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|\`(?:[^\`\\\\]|\\\\.)*\`)|\\b(\\d+(?:\\.\\d+)?)\\b|\\b([A-Za-z_][A-Za-z0-9_]*)\\b`,
    "g",
  );
  return lines.map((line) =>
    line.replace(
      token,
      (match, c: string | undefined, s: string | undefined, n: string | undefined, word: string | undefined) => {
        if (c) return paint.comment(c);
        if (s) return paint.string(s);
        if (n) return paint.number(n);
        if (word && KEYWORDS.has(word)) return paint.keyword(word);
        return match;
      },
    ),
  );
}
