/**
 * One-line messages for a server process that could not start or stopped at once, shared by every place that spawns
 * an MCP server (the repair proxy, `mcp check`, the lazy-mcp gateway): what happened, to which command, how to fix.
 */

/** How much of a server's stderr is kept for these messages. */
export const STDERR_TAIL_CHARS = 2000

/** `spawn` failed: name the command and say what the error code means for the user. */
export function describeSpawnError(command: string, error: NodeJS.ErrnoException): string {
  const name = JSON.stringify(command)
  switch (error.code) {
    case 'ENOENT':
      return `could not start ${name}: command not found (spawn ENOENT); check the spelling, install it, or give its full path (PATH is searched)`
    case 'EACCES':
      return `could not start ${name}: permission denied (spawn EACCES); make it executable (chmod +x) or run it through its interpreter`
    case 'ENOTDIR':
    case 'EISDIR':
      return `could not start ${name}: not an executable file (spawn ${error.code}); give the path of the program itself`
    default:
      return `could not start ${name}: ${error.message}`
  }
}

/** `; its stderr ends with: "…"` for a non-empty tail (last lines, one line of text), else ''. */
export function stderrTail(stderr: string): string {
  const tail = stderr.trim().split(/\r?\n/).slice(-5).join(' | ')
  return tail === '' ? '' : `; its stderr ends with: ${JSON.stringify(tail.slice(-500))}`
}

/** A server that exited before it answered: its exit code or signal and what it last wrote to stderr. */
export function describeEarlyExit(
  command: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
): string {
  const how = signal === null ? `with code ${code}` : `on signal ${signal}`
  return `${JSON.stringify(command)} exited ${how} before answering${stderrTail(stderr)}; run it by hand to see why`
}
