import { childEnvironment, describeEarlyExit, describeSpawnError } from '@dsh-harden/mcp-transport'
import {
  answerServerRequest,
  clip,
  type Exchange,
  type ExchangeOutcome,
  isObject,
  type RawConnection,
} from './exchange.ts'
import { forEachLine } from './lines.ts'
import { spawnServer } from './processes.ts'

const STDERR_LIMIT = 64 * 1024
const NOISE_LIMIT = 20
const NOTIFY_SETTLE_MS = 100

interface Pending {
  readonly id: number
  readonly resolve: (outcome: ExchangeOutcome) => void
}

/**
 * Newline-delimited JSON-RPC over a spawned server's stdin/stdout, as the MCP stdio transport defines it. A reply with
 * no usable id is still attributed to the one request in flight, so an `{ok,data}` server is heard, not timed out;
 * callers send one request at a time unless the server has shown that it echoes ids.
 */
export function openStdio(options: {
  command: string
  args: readonly string[]
  env?: Readonly<Record<string, string>> | undefined
  /** Parent variables the server may see beyond the default set. */
  passEnv?: readonly string[] | undefined
  cwd?: string | undefined
}): RawConnection {
  // The server sees the default environment, the names passed on, and its own env; never our secrets.
  const server = spawnServer(options.command, options.args, {
    env: childEnvironment(process.env, { env: options.env, passEnv: options.passEnv }),
    cwd: options.cwd,
  })
  const { child } = server
  const noise: string[] = []
  const unsolicited: string[] = []
  let onUnsolicited: (() => void) | undefined
  const serverRequests: string[] = []
  let stderr = ''
  const pending = new Map<number, Pending>()
  let closedDetail: string | undefined
  let nextId = 1

  const settleAll = (outcome: ExchangeOutcome): void => {
    const waiters = [...pending.values()]
    pending.clear()
    for (const waiter of waiters) waiter.resolve(outcome)
  }
  const write = (message: object): void => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`)
  }
  child.once('error', (error) => {
    closedDetail = describeSpawnError(options.command, error)
    settleAll({ kind: 'closed', detail: closedDetail })
  })
  child.once('close', (code, signal) => {
    closedDetail ??= describeEarlyExit(options.command, code, signal, stderr)
    settleAll({ kind: 'closed', detail: closedDetail })
  })
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT)
  })

  const onLine = (line: string): void => {
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      if (noise.length < NOISE_LIMIT) noise.push(clip(line))
      return
    }
    if (isObject(message) && typeof message.method === 'string') {
      // A request from the server carries an id; a notification does not. Neither answers ours.
      if (message.id !== undefined && message.id !== null) {
        serverRequests.push(message.method)
        write(answerServerRequest(message))
      }
      return
    }
    const id = isObject(message) ? message.id : undefined
    const byId = typeof id === 'number' ? pending.get(id) : undefined
    // Without a usable id a reply can only be attributed when exactly one request is in flight.
    const waiter = byId ?? (pending.size === 1 ? [...pending.values()][0] : undefined)
    if (waiter === undefined) {
      if (unsolicited.length < NOISE_LIMIT) unsolicited.push(clip(line))
      onUnsolicited?.()
      return
    }
    pending.delete(waiter.id)
    waiter.resolve({ kind: 'reply', message, text: line, matchedBy: byId === undefined ? 'order' : 'id' })
  }
  if (child.stdout)
    forEachLine(child.stdout, onLine, {
      onOversize: (bytes) => {
        if (noise.length < NOISE_LIMIT)
          noise.push(`(a line of ${bytes} bytes, over the message limit; dropped)`)
      },
    })

  return {
    noise,
    unsolicited,
    serverRequests,
    stderr: () => stderr,
    setProtocolVersion() {},
    async request(method, params, timeoutMs) {
      const id = nextId++
      const started = performance.now()
      const done = (outcome: ExchangeOutcome): Exchange => ({
        method,
        id,
        elapsedMs: Math.round(performance.now() - started),
        outcome,
      })
      if (closedDetail !== undefined) return done({ kind: 'closed', detail: closedDetail })
      const outcome = await new Promise<ExchangeOutcome>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id)
          // Tell the server to stop, as the spec asks of a client that gives up on a request.
          write({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: `mcp check: no reply within ${timeoutMs} ms` },
          })
          resolve({ kind: 'timeout', afterMs: timeoutMs })
        }, timeoutMs)
        pending.set(id, {
          id,
          resolve: (value) => {
            clearTimeout(timer)
            resolve(value)
          },
        })
        write({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })
      })
      return done(outcome)
    },
    async notify(method, params) {
      write({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) })
      // A server that answers notifications would have that answer taken for the next request's reply; give it a
      // moment to show itself so it is recorded as unsolicited instead.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, NOTIFY_SETTLE_MS)
        function done(): void {
          clearTimeout(timer)
          onUnsolicited = undefined
          resolve()
        }
        onUnsolicited = done
      })
    },
    close: () => server.stop(),
  }
}
