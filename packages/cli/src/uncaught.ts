import { messageOf } from './lint/inject.ts'

type Kind = 'error' | 'rejection'
type Sink = (kind: Kind, error: unknown) => void

let sink: Sink | undefined
let installed = false

/**
 * The one line for an error nothing else explained. The stack trace is for whoever debugs dsh-harden itself, so
 * it is printed only with DSH_HARDEN_DEBUG=1.
 */
export function unexpected(kind: Kind, error: unknown): string {
  const what = kind === 'error' ? 'unexpected error' : 'unhandled rejection'
  if (process.env.DSH_HARDEN_DEBUG === '1') {
    const stack = error instanceof Error && error.stack !== undefined ? error.stack : messageOf(error)
    return `dsh-harden: ${what}: ${stack}\n`
  }
  return `dsh-harden: ${what}: ${messageOf(error)} (set DSH_HARDEN_DEBUG=1 for the stack trace)\n`
}

/**
 * Process-wide handlers so code we load (a plugin's stray timers and promises) can never end the command with a
 * stack trace. While a sink is set, errors go to it; otherwise the command stops with exit code 2 and one line.
 */
export function installUncaughtHandlers(write: (text: string) => void, exit: (code: number) => void): void {
  if (installed) return
  installed = true
  const handle = (kind: Kind) => (error: unknown) => {
    if (sink !== undefined) return sink(kind, error)
    write(unexpected(kind, error))
    exit(2)
  }
  process.on('uncaughtException', handle('error'))
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
