/** Error events carry a source excerpt after the first line; the first line says what happened. */
export function firstLine(message: unknown): string {
  const lines = String(message ?? "").split("\n").filter((l) => l.trim() !== "");
  const error = lines.find((l) => /^(error|\w*Error|BuildMessage|ResolveMessage)\b/.test(l.trim()));
  return (error ?? lines[0] ?? "unknown error").trim();
}

/** What a worker that ended on its own (process.exit in the module) means for the call. */
export function exitMessage(code: number | undefined): string {
  return `the module ended its context (process.exit${code === undefined ? "" : `(${code})`})`;
}
