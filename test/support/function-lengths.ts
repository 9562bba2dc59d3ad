/**
 * How long each function of a TypeScript source is, for the architecture
 * test's "no function over 100 lines". No parser ships with the repository
 * (the typescript package is the native compiler, without a JS API), so this
 * is a scanner, and its rules are simple on purpose:
 *
 * - Comments, strings, template text and regular expressions are blanked
 *   first (newlines kept), so braces inside them do not count.
 * - A function is a `function` (declaration or expression), a method or
 *   accessor (`name(…) {`, `async name(…) {`, `get name() {` … at the start
 *   of a class or object member), or an arrow function whose body is a block
 *   (`=> {`). An arrow with an expression body is not a function of its own
 *   here; the functions inside it are.
 * - Its length is the lines from its body's opening brace to the matching
 *   closing brace, both included: a one-line body is 1, and nested functions
 *   count in the lines of the function that holds them.
 */

export interface FunctionLength {
  /** The declared name, the variable or property it is assigned to, or "(anonymous)". */
  name: string;
  /** 1-based line of the body's opening brace. */
  line: number;
  lines: number;
}

const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "with",
  "return",
  "function",
  "typeof",
  "await",
  "yield",
  "new",
  "delete",
  "void",
  "in",
  "of",
  "do",
  "else",
  "case",
  "throw",
]);
/** After these (or at the start), a `/` begins a regular expression rather than a division. */
const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "await",
  "yield",
]);

/** The source with comments, string and template text and regex bodies replaced by spaces. */
export function blankNonCode(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  // Each open template literal's brace depth when its `${` opened.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const n = source.length;
  const regexAllowed = (at: number): boolean => {
    let j = at - 1;
    while (j >= 0 && /\s/.test(out[j]!)) j--;
    if (j < 0) return true;
    const c = out[j]!;
    if (/[\w$]/.test(c)) {
      let k = j;
      while (k >= 0 && /[\w$]/.test(out[k]!)) k--;
      return REGEX_AFTER_WORDS.has(out.slice(k + 1, j + 1).join(""));
    }
    return !/[)\]}]/.test(c);
  };
  // Skips template text from i (just after a backtick or a closing `}`) to the end or the next `${`.
  const templateText = () => {
    const start = i;
    while (i < n && source[i] !== "`" && !(source[i] === "$" && source[i + 1] === "{")) i += source[i] === "\\" ? 2 : 1;
    blank(start, i);
    if (source[i] === "`") i++;
    else if (i < n) {
      templates.push(depth);
      depth++;
      blank(i, i + 2);
      i += 2;
    }
  };
  while (i < n) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      blank(i, end < 0 ? n : end);
      i = end < 0 ? n : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      blank(i, end < 0 ? n : end + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      const start = i++;
      while (i < n && source[i] !== c && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
      blank(start + 1, i);
      i++;
    } else if (c === "`") {
      i++;
      templateText();
    } else if (c === "/" && regexAllowed(i)) {
      const start = i++;
      let inClass = false;
      while (i < n && source[i] !== "\n" && (inClass || source[i] !== "/")) {
        if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
        i += source[i] === "\\" ? 2 : 1;
      }
      blank(start + 1, i);
      i++;
    } else if (c === "{") {
      depth++;
      i++;
    } else if (c === "}") {
      depth--;
      i++;
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        templates.pop();
        out[i - 1] = " ";
        templateText();
      }
    } else i++;
  }
  return out.join("");
}

/** Index of the bracket matching the one at `open` (code already blanked), or -1. */
function matching(code: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
  const stack: string[] = [];
  for (let i = open; i < code.length; i++) {
    const c = code[i]!;
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/**
 * From just after a parameter list's `)`: the index of the body's `{`, or -1
 * when none follows (an overload, a call, a function type). A return type
 * (`: T`) is skipped: a `{` where a type is expected opens an object type.
 */
function bodyAfterParameters(code: string, from: number): number {
  let i = from;
  while (/\s/.test(code[i] ?? "")) i++;
  if (code[i] === "{") return i;
  if (code[i] !== ":") return -1;
  i++;
  let expectingType = true;
  while (i < code.length) {
    const c = code[i]!;
    if (/\s/.test(c)) i++;
    else if (c === "{" && !expectingType) return i;
    else if (c === "{" || c === "(" || c === "[") {
      const end = matching(code, i);
      if (end < 0) return -1;
      i = end + 1;
      expectingType = false;
    } else if (c === "<") {
      let angle = 0;
      do {
        if (code[i] === "<") angle++;
        else if (code[i] === ">" && code[i - 1] !== "=") angle--;
        i++;
      } while (i < code.length && angle > 0);
      expectingType = false;
    } else if (c === "|" || c === "&" || c === "," || c === "?" || c === ":" || c === "." || c === "=") {
      i += code.startsWith("=>", i) ? 2 : 1;
      expectingType = true;
    } else if (/[\w$]/.test(c)) {
      while (/[\w$]/.test(code[i] ?? "")) i++;
      const word = code.slice(0, i).match(/[\w$]+$/)![0];
      expectingType =
        word === "keyof" ||
        word === "typeof" ||
        word === "is" ||
        word === "readonly" ||
        word === "infer" ||
        word === "asserts";
    } else if (c === ";" || c === ")" || c === "}" || c === "]") return -1;
    else i++;
  }
  return -1;
}

/** The name a function expression or arrow starting before `at` is given: `const x =`, `x:`, `this.x =`. */
function assignedName(code: string, at: number): string {
  const before = code.slice(Math.max(0, at - 200), at);
  const match = before.match(
    /([\w$]+)\s*(?::[^=;{}()]*)?(?:=|:)\s*(?:async\s*)?(?:<[^<>]*>\s*)?(?:\([^()]*(?:\([^()]*\)[^()]*)*\)|[\w$]+)?\s*(?::[^=;{}]*)?$/,
  );
  return match?.[1] ?? "(anonymous)";
}

/** Every function of a source with a block body, in source order, with its length in lines. */
export function functionLengths(source: string): FunctionLength[] {
  const code = blankNonCode(source);
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  const found = new Map<number, string>();
  const add = (brace: number, name: string) => {
    if (brace >= 0 && code[brace] === "{" && !found.has(brace)) found.set(brace, name);
  };
  for (const m of code.matchAll(/\bfunction\b\s*\*?\s*([\w$]*)\s*(<[^(]*?>)?\s*\(/g)) {
    const open = m.index! + m[0].length - 1;
    const close = matching(code, open);
    if (close < 0) continue;
    add(bodyAfterParameters(code, close + 1), m[1] || assignedName(code, m.index!));
  }
  for (const m of code.matchAll(/=>\s*\{/g)) add(m.index! + m[0].length - 1, assignedName(code, m.index!));
  // Methods and accessors: a name at the start of a member (after `{`, `}`, `;`, `,` or a modifier) then parameters.
  const member =
    /(?:^|[{};,])\s*(?:(?:async|static|get|set|public|private|protected|override|readonly)\s+)*\*?\s*(#?[\w$]+)\s*(?:<[^(]*?>)?\s*\(/g;
  for (const m of code.matchAll(member)) {
    if (KEYWORDS.has(m[1]!)) continue;
    const open = m.index! + m[0].length - 1;
    const close = matching(code, open);
    if (close < 0) continue;
    add(bodyAfterParameters(code, close + 1), m[1]!);
  }
  return [...found.entries()]
    .sort(([a], [b]) => a - b)
    .map(([brace, name]) => {
      const end = matching(code, brace);
      return { name, line: lineOf(brace), lines: end < 0 ? Number.POSITIVE_INFINITY : lineOf(end) - lineOf(brace) + 1 };
    });
}
