/** What `import ... with { type: "file" }` gives for this module under `bun build --compile` (embedded-built-ins.ts): its path in the binary. */
declare const path: string;
export default path;
