/**
 * `${NAME}` expansion in configuration strings. An unset variable expands to
 * "" and is reported, never thrown: whether it matters depends on whether
 * the string is ever used (see UnsetVariable).
 */

/** The outcome of expanding one string. */
export type Expansion = { ok: true; value: string; unset: string[]; used: string[] } | { ok: false; problem: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${NAME}` and `${NAME:-fallback}` from `env`; `$${` is a literal
 * `${`. Any other `${…}` is malformed, because a typo in a reference must not
 * silently become part of a key or URL.
 */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  if (!text.includes("${")) return { ok: true, value: text, unset: [], used: [] };
  let value = "";
  const unset: string[] = [];
  // Variables whose (non-empty) value went into the result: a secret there must be kept out of messages.
  const used: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("${", i);
    if (start < 0) {
      value += text.slice(i);
      break;
    }
    if (start > i && text[start - 1] === "$") {
      // `$${` escapes: drop one `$`, keep `${` literally.
      value += text.slice(i, start - 1) + "${";
      i = start + 2;
      continue;
    }
    value += text.slice(i, start);
    const end = text.indexOf("}", start + 2);
    if (end < 0)
      return {
        ok: false,
        problem: `unclosed variable reference "${text.slice(start)}" (write \${NAME}, or $\${ for a literal \${)`,
      };
    const inner = text.slice(start + 2, end);
    const sep = inner.indexOf(":-");
    const name = sep < 0 ? inner : inner.slice(0, sep);
    if (!NAME.test(name)) {
      return {
        ok: false,
        problem: `malformed variable reference "\${${inner}}" (a name is letters, digits and "_", not starting with a digit; $\${ writes a literal \${)`,
      };
    }
    const found = Object.hasOwn(env, name) ? env[name] : undefined;
    if (found !== undefined && found !== "" && !used.includes(name)) used.push(name);
    if (sep >= 0) {
      value += found === undefined || found === "" ? inner.slice(sep + 2) : found;
    } else if (found === undefined) {
      unset.push(name);
    } else {
      value += found;
    }
    i = end + 1;
  }
  return { ok: true, value, unset, used };
}
