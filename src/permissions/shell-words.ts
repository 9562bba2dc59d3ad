/**
 * The simple commands of a shell command line, each as its words, split as
 * `sh` would split them: quotes and backslashes removed, `;`, `&&`, `||`,
 * `|`, `&`, newlines and parentheses separating commands, the commands
 * inside `$(...)` and backquotes listed too, redirections and leading
 * `NAME=value` assignments left out. Nothing is expanded: `$HOME` stays a
 * word as written. This is what permission rules match against; it is not
 * a boundary (`sh -c`, `env`, `xargs` run commands no rule sees).
 */

/** The commands of `line`, or undefined when the line cannot be split (an unclosed quote or substitution). */
export function splitCommands(line: string): string[][] | undefined {
  const commands: string[][] = [];
  return scan(line, commands) ? commands.filter((words) => words.length > 0) : undefined;
}

const OPERATOR_CHARS = new Set([";", "&", "|", "(", ")", "\n"]);
const BLANK = /[ \t\r]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Splits `text` into commands (appended to `out`); false when a quote or substitution is not closed. */
function scan(text: string, out: string[][]): boolean {
  let words: string[] = [];
  let word: string | undefined;
  // After `>` or `<`: the next word is the redirection's target, not an argument.
  let target = false;
  const endWord = () => {
    if (word === undefined) return;
    if (target) target = false;
    else if (!(words.length === 0 && ASSIGNMENT.test(word))) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    out.push(words);
    words = [];
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      if (text[i + 1] !== "\n") word = (word ?? "") + (text[i + 1] ?? "");
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return false;
      word = (word ?? "") + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const read = doubleQuoted(text, i + 1, out);
      if (!read) return false;
      word = (word ?? "") + read.text;
      i = read.end;
    } else if ((c === "$" && text[i + 1] === "(") || c === "`") {
      const open = c === "`" ? 1 : 2;
      const end = c === "`" ? text.indexOf("`", i + 1) : closing(text, i + 2);
      if (end < 0 || !scan(text.slice(i + open, end), out)) return false;
      word = `${word ?? ""}${text.slice(i, end + 1)}`;
      i = end + 1;
    } else if (c === "#" && word === undefined) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "<" || c === ">" || (c === "&" && text[i + 1] === ">")) {
      // A file descriptor number before it (`2>`) belongs to the redirection.
      if (word !== undefined && /^[0-9]+$/.test(word)) word = undefined;
      else endWord();
      i = redirection(text, i, (hasTarget) => void (target = !hasTarget));
    } else if (BLANK.test(c)) {
      endWord();
      i++;
    } else if (OPERATOR_CHARS.has(c)) {
      endCommand();
      i++;
    } else {
      word = (word ?? "") + c;
      i++;
    }
  }
  endCommand();
  return true;
}

/** Skips the operator of a redirection at `start` (`>`, `>>`, `2>&1`, `<<<`, `&>`); says whether its target came with it (`>&2`). */
function redirection(text: string, start: number, done: (hasTarget: boolean) => void): number {
  let i = start;
  while (i < text.length && "<>&|".includes(text[i]!)) i++;
  const duplicate = /^(?:[0-9]+|-)/.exec(text.slice(i));
  if (text[i - 1] === "&" && duplicate) {
    done(true);
    return i + duplicate[0].length;
  }
  done(false);
  return i;
}

/** The text of a double-quoted part starting at `start` (after the quote), and where it ends; substitutions in it are scanned too. */
function doubleQuoted(text: string, start: number, out: string[][]): { text: string; end: number } | undefined {
  let value = "";
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return { text: value, end: i + 1 };
    if (c === "\\" && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
      if (text[i + 1] !== "\n") value += text[i + 1];
      i += 2;
    } else if (c === "$" && text[i + 1] === "(") {
      const end = closing(text, i + 2);
      if (end < 0 || !scan(text.slice(i + 2, end), out)) return undefined;
      value += text.slice(i, end + 1);
      i = end + 1;
    } else if (c === "`") {
      const end = text.indexOf("`", i + 1);
      if (end < 0 || !scan(text.slice(i + 1, end), out)) return undefined;
      value += text.slice(i, end + 1);
      i = end + 1;
    } else {
      value += c;
      i++;
    }
  }
  return undefined;
}

/** The index of the `)` closing a `$(` whose text starts at `start`, quotes respected; -1 when none. */
function closing(text: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") i += 2;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else {
      if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return i;
      i++;
    }
  }
  return -1;
}
