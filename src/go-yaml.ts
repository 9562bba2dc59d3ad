/**
 * What the Go Rienda's YAML parser (yaml.v3) read differently from YAML 1.2,
 * where a Go-era file must keep its meaning: config.yaml
 * (config/parse-config-yaml.ts) and an agent's frontmatter
 * (agents/read-frontmatter.ts) alike.
 */
import { visit, type Document } from "yaml";

// Integers yaml.v3 read and YAML 1.2 leaves as text: digits grouped with
// underscores (`200_000`) and binary (`0b1010`), signed or not, unquoted.
// yaml.v3 dropped every "_" of a plain scalar, then parsed it with Go's base
// prefixes; a quoted "1_000" was text there too.
const GO_INTEGER =
  /^[-+]?(?:0b[01_]*[01][01_]*|0o[0-7_]*[0-7][0-7_]*|0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*|[0-9][0-9_]*)$/;

/**
 * Gives the unquoted values a Go-era file meant as integers
 * (`context_window: 200_000`) the number Go's parser read. Keys stay as
 * written; the text a value was written as stays in its `source`.
 */
export function readGoIntegers(doc: Document.Parsed): void {
  visit(doc, {
    Scalar(key, node) {
      if (key === "key" || node.type !== "PLAIN" || typeof node.value !== "string" || !GO_INTEGER.test(node.value))
        return;
      const plain = node.value.replace(/_/g, "");
      const magnitude = Number(plain.replace(/^[-+]/, ""));
      const read = plain.startsWith("-") ? -magnitude : magnitude;
      if (Number.isSafeInteger(read)) node.value = read;
    },
  });
}
