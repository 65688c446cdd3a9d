import { messageOf } from './lint/inject.ts'

type Sink = (kind: 'exception' | 'rejection', error: unknown) => void

let sink: Sink | undefined
let installed = false

/**
 * Process-wide handlers so code we load (a plugin's stray timers and promises) can never end the command with a
 * stack trace. While a sink is set, errors go to it; otherwise the command stops with exit code 2 and one line.
 */
export function installUncaughtHandlers(write: (text: string) => void, exit: (code: number) => void): void {
  if (installed) return
  installed = true
  const handle = (kind: 'exception' | 'rejection') => (error: unknown) => {
    if (sink !== undefined) return sink(kind, error)
    write(
      `dsh-harden: unexpected ${kind === 'exception' ? 'error' : 'unhandled rejection'}: ${messageOf(error)}\n`,
    )
    exit(2)
  }
  process.on('uncaughtException', handle('exception'))
  process.on('unhandledRejection', handle('rejection'))
}

/** Routes uncaught errors to `next` until the returned function is called. */
export function captureUncaught(next: Sink): () => void {
  const previous = sink
  sink = next
  return () => {
    sink = previous
  }
}
