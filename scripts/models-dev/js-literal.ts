/**
 * Reads one JavaScript object literal as minified code writes it (`{id:"x",
 * reasoning:!0,limit:{context:1e6}}`) out of bytes, as data: objects,
 * arrays, strings, numbers, `!0`/`!1`, `true`/`false`, `null` and
 * `void 0`. Anything else (a call, a variable, a spread, `${}` in a
 * template) is an error naming the byte offset, so code is never run and a
 * changed layout fails loudly rather than yielding something half read.
 *
 * The text is the bytes read as latin1 (one character per byte, so indexes
 * are byte offsets); string contents are decoded as UTF-8.
 */

/** The value read and the byte offset just after it. */
export interface LiteralRead {
  value: unknown;
  end: number;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};
/** Values written as words, longest first so `void 0` is not read as something shorter. */
const WORDS: ReadonlyArray<readonly [string, unknown]> = [
  ["void 0", undefined],
  ["false", false],
  ["true", true],
  ["null", null],
  ["!0", true],
  ["!1", false],
];

/** Reads the literal that starts at `start` (its first non-blank character) in `text`. */
export function readLiteral(text: string, start: number): LiteralRead {
  const reader = new LiteralReader(text, start);
  const value = reader.value();
  return { value, end: reader.at };
}

class LiteralReader {
  constructor(
    private readonly text: string,
    public at: number,
  ) {}

  value(): unknown {
    this.skipBlanks();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"' || c === "'" || c === "`") return this.string();
    for (const [word, value] of WORDS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    const number = this.match(NUMBER);
    if (number !== undefined) return Number(number);
    return this.fail("a value");
  }

  private object(): Record<string, unknown> {
    this.at++;
    const object: Record<string, unknown> = {};
    if (this.consume("}")) return object;
    for (;;) {
      this.skipBlanks();
      const key = this.key();
      if (!this.consume(":")) this.fail('":"');
      const value = this.value();
      // `void 0` is how minified code writes an absent field: leave it out, as JSON would.
      if (value !== undefined)
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.consume(",")) continue;
      if (this.consume("}")) return object;
      this.fail('"," or "}"');
    }
  }

  private array(): unknown[] {
    this.at++;
    const array: unknown[] = [];
    if (this.consume("]")) return array;
    for (;;) {
      array.push(this.value());
      if (this.consume(",")) continue;
      if (this.consume("]")) return array;
      this.fail('"," or "]"');
    }
  }

  private key(): string {
    const c = this.text[this.at];
    if (c === '"' || c === "'" || c === "`") return this.string();
    const name = this.match(IDENTIFIER) ?? this.match(NUMBER);
    return name ?? this.fail("a key");
  }

  private string(): string {
    const quote = this.text[this.at]!;
    let out = "";
    let run = this.at + 1;
    let i = run;
    const flush = (until: number) => {
      out += Buffer.from(this.text.slice(run, until), "latin1").toString("utf8");
    };
    for (;;) {
      const c = this.text[i];
      if (c === undefined) return this.fail("the end of a string");
      if (c === quote) break;
      if (quote === "`" && c === "$" && this.text[i + 1] === "{") return this.fail("a template without ${}");
      if (c !== "\\") {
        i++;
        continue;
      }
      flush(i);
      const [decoded, length] = this.escape(i);
      out += decoded;
      i += length;
      run = i;
    }
    flush(i);
    this.at = i + 1;
    return out;
  }

  /** The escape at `i` (its backslash) and how many characters it takes. */
  private escape(i: number): [string, number] {
    const e = this.text[i + 1]!;
    if (e === "x") return [String.fromCharCode(this.hex(i + 2, 2)), 4];
    if (e === "u" && this.text[i + 2] === "{") {
      const close = this.text.indexOf("}", i);
      return [String.fromCodePoint(this.hex(i + 3, close - i - 3)), close - i + 1];
    }
    if (e === "u") return [String.fromCharCode(this.hex(i + 2, 4)), 6];
    if (e === "\n") return ["", 2];
    return [SIMPLE_ESCAPES[e] ?? e, 2];
  }

  private hex(from: number, length: number): number {
    const digits = this.text.slice(from, from + length);
    if (!/^[0-9a-fA-F]+$/.test(digits)) {
      this.at = from;
      this.fail("hexadecimal digits");
    }
    return Number.parseInt(digits, 16);
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) return undefined;
    this.at += found[0].length;
    return found[0];
  }

  private consume(token: string): boolean {
    this.skipBlanks();
    if (this.text[this.at] !== token) return false;
    this.at++;
    return true;
  }

  private skipBlanks(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  private fail(expected: string): never {
    const near = JSON.stringify(this.text.slice(this.at, this.at + 40));
    throw new Error(`expected ${expected} at byte ${this.at}, found ${near}`);
  }
}
