/**
 * Ends the process once everything written to stdout and stderr has left:
 * a piped stdout must never lose the end of an answer, and lingering handles
 * (spare workers, keep-alive sockets) must not keep a finished run alive.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write("", () => resolve());
  });
}
