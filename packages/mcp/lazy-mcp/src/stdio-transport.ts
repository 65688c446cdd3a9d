import { type ChildProcess, spawn } from 'node:child_process'
import {
  LineSplitter,
  lineText,
  type OversizeLine,
  oversizeLineMessage,
  RequestTracker,
} from '@dsh-harden/mcp-transport'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface GroupStdioOptions {
  readonly command: string
  readonly args: readonly string[]
  /** The complete child environment (already scrubbed); nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>
  readonly cwd?: string | undefined
  /** Called with each stderr chunk (the gateway keeps a short tail for diagnostics). */
  readonly onStderr?: ((text: string) => void) | undefined
  /** How long `close()` waits after closing stdin, and again after SIGTERM, before escalating. */
  readonly graceMs?: number | undefined
  /** Longest stdout line accepted (default 32 MiB); a longer answer becomes a JSON-RPC error to its request. */
  readonly maxLineBytes?: number | undefined
}

/** Thrown by `send` when nothing was written: the process is gone or was never started. */
export class NotWrittenError extends Error {
  override readonly name = 'NotWrittenError'
}

const IS_WINDOWS = process.platform === 'win32'

/**
 * Newline-delimited JSON-RPC over a child's stdio, with the child in its own process group so that
 * `close()` reaches every descendant. The SDK's `StdioClientTransport` signals only the direct child, which
 * leaves grandchildren of `sh -c` / `npx` wrappers running (supergateway #137, MetaMCP #128).
 */
export class GroupStdioTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined

  readonly #options: GroupStdioOptions
  readonly #pending = new RequestTracker()
  readonly #lines: LineSplitter
  #child: ChildProcess | undefined
  #exited: Promise<void> | undefined
  #streamsClosed: Promise<void> | undefined
  #closing = false
  #done = false

  constructor(options: GroupStdioOptions) {
    this.#options = options
    this.#lines = new LineSplitter({
      maxBytes: options.maxLineBytes,
      onLine: (line) => this.#receive(line),
      onOversize: (line) => this.#oversize(line),
    })
  }

  /** The child's pid, which is also its process-group id (undefined before start). */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /** `code N` or `signal S` once the child has exited, else undefined. */
  get exitStatus(): string | undefined {
    const child = this.#child
    if (child === undefined) return undefined
    if (child.signalCode !== null) return `signal ${child.signalCode}`
    return child.exitCode !== null ? `code ${child.exitCode}` : undefined
  }

  /** Whether the child process has exited. */
  get exited(): boolean {
    const child = this.#child
    return child !== undefined && (child.exitCode !== null || child.signalCode !== null)
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('GroupStdioTransport already started')
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...this.#options.args], {
        cwd: this.#options.cwd,
        env: { ...this.#options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group: one signal to -pid reaches the whole tree.
        detached: !IS_WINDOWS,
        windowsHide: true,
      })
      this.#child = child
      this.#exited = new Promise((done) => child.once('exit', () => done()))
      this.#streamsClosed = new Promise((done) => child.once('close', () => done()))
      child.once('error', (error) => {
        reject(error)
        this.onerror?.(error)
        this.#finish()
      })
      child.once('spawn', () => resolve())
      // When the leader exits, whatever it started goes with it: no descendant outlives its server.
      child.once('exit', () => this.#signal('SIGKILL'))
      child.once('close', () => this.#finish())
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => this.#lines.push(chunk))
      child.stdout?.on('error', (error) => this.onerror?.(error))
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => this.#options.onStderr?.(text))
    })
  }

  #receive(line: Buffer): void {
    const text = lineText(line)
    if (text.trim() === '') return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(text)
    } catch (error) {
      this.onerror?.(error as Error)
      return
    }
    this.#pending.answered(message)
    this.onmessage?.(message)
  }

  /**
   * A line over the limit was dropped. When it was a request's answer (found by the `id` at its edges), that request
   * gets a JSON-RPC error; a line that only names a pending request (a log line echoing it) leaves the request waiting
   * for its real answer, so no request is answered twice.
   */
  #oversize(line: OversizeLine): void {
    const found = this.#pending.ownerOfDropped(oversizeLineMessage(line))
    const owner = found?.answered ? found.request : undefined
    const problem = `the server wrote a message of ${line.bytes} bytes, over the gateway's limit`
    if (owner === undefined) {
      this.onerror?.(new Error(`${problem}; dropped`))
      return
    }
    this.onmessage?.({
      jsonrpc: '2.0',
      id: owner.id,
      error: {
        code: -32603,
        message: `${problem} (its answer to ${owner.method})`,
        data: { bytes: line.bytes },
      },
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (!stdin || this.#closing || this.#done || this.exited || stdin.destroyed || !stdin.writable)
      return Promise.reject(new NotWrittenError('the server process is not running; nothing was written'))
    this.#pending.sent(message)
    return new Promise((resolve, reject) => {
      const flushed = stdin.write(serializeMessage(message), (error) => {
        if (error) reject(error)
        else if (flushed) resolve()
      })
      if (!flushed) stdin.once('drain', () => resolve())
    })
  }

  async close(): Promise<void> {
    this.#closing = true
    const child = this.#child
    const exited = this.#exited
    if (!child || !exited || child.pid === undefined) {
      // Never started, or the spawn itself failed: there is no process to wait for.
      this.#finish()
      return
    }
    const grace = this.#options.graceMs ?? 1500
    const wait = (event: Promise<void>, ms: number): Promise<boolean> =>
      Promise.race([event.then(() => true), new Promise<boolean>((done) => setTimeout(done, ms, false))])
    if (!this.exited) {
      try {
        child.stdin?.end()
      } catch {}
      if (!(await wait(exited, grace))) {
        this.#signal('SIGTERM')
        if (!(await wait(exited, grace))) {
          this.#signal('SIGKILL')
          await wait(exited, grace)
        }
      }
    }
    // The leader is gone; descendants that ignored stdin closing may still be alive in its group.
    this.#signal('SIGKILL')
    if (this.#streamsClosed) await wait(this.#streamsClosed, grace)
    this.#finish()
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid
    if (pid === undefined) return
    try {
      if (IS_WINDOWS) this.#child?.kill(signal)
      else process.kill(-pid, signal)
    } catch {
      // ESRCH: the group is already empty.
    }
  }

  #finish(): void {
    if (this.#done) return
    this.#done = true
    this.#pending.drain()
    this.onclose?.()
  }
}

/** Whether any process of the group led by `pgid` is still alive (POSIX; signal 0 probe). */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
