import type { Context } from '@deepseek-ai/cordis'

/** Where the overlay tells the user about a refused or repaired tool. */
export type NoticeSink = (line: string) => void

/** Where a caller without a notice channel (a bare `guardRegister`) still sees each notice: stderr. */
export function stderrOnly(line: string): void {
  process.stderr.write(`${line}\n`)
}

/**
 * Writes each notice to stderr, where a headless run shows it (DSH's `ctx.logger` output only goes to cordis'
 * in-memory buffer unless something exports it), and to the `dsh-harden` logger for any exporter a host adds.
 */
export function stderrAndLogger(ctx: Context): NoticeSink {
  const logger = ctx.logger('dsh-harden')
  return (line) => {
    process.stderr.write(`${line}\n`)
    logger.warn(line)
  }
}
