import { type IntakeResult, intakeToolList } from '@dsh-harden/mcp-client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerConfig } from './config.ts'
import { DeliveryTracker, TRACK_KEY } from './delivery.ts'
import { childEnv } from './env.ts'
import { GroupStdioTransport } from './stdio-transport.ts'

const CLIENT_INFO = { name: 'dsh-harden-lazy-mcp', version: '0.1.0' }
const MAX_PAGES = 50
const STDERR_TAIL = 2000

/** Accepts any result object: the gateway judges each listed tool itself (tolerant intake), never the whole page. */
const ANY_RESULT = { safeParse: (data: unknown) => ({ success: true as const, data }) }

export interface ConnectOptions {
  readonly parentEnv: Readonly<Record<string, string | undefined>>
  readonly timeoutMs: number
  /** Called once if the transport closes without the gateway asking (the server exited, the socket dropped). */
  readonly onLost: () => void
}

/** A raw result the SDK did not reshape: the gateway only reads what it needs from it. */
export type RawResult = Readonly<Record<string, unknown>>

/** One live connection to one server: its client, its delivery tracker, and the tool list it read. */
export class Connection {
  readonly client: Client
  readonly tracker: DeliveryTracker
  /** Process-group id of a stdio server (its pid). */
  readonly pid: number | undefined
  #listing: IntakeResult = { tools: [], repairs: [], diagnostics: [] }
  readonly #stderr: () => string
  #closing = false

  private constructor(
    client: Client,
    tracker: DeliveryTracker,
    pid: number | undefined,
    stderr: () => string,
  ) {
    this.client = client
    this.tracker = tracker
    this.pid = pid
    this.#stderr = stderr
  }

  get listing(): IntakeResult {
    return this.#listing
  }

  /** The last lines the server wrote to stderr (stdio), for failure messages; never logged by the gateway. */
  get stderrTail(): string {
    return this.#stderr()
  }

  /** Starts the server (or opens the HTTP session), runs `initialize`, and lists its tools through intake. */
  static async open(server: ServerConfig, options: ConnectOptions): Promise<Connection> {
    let stderr = ''
    let transport: Transport
    let pid: () => number | undefined = () => undefined
    let exitStatus: () => string | undefined = () => undefined
    if (server.transport === 'stdio') {
      const stdio = new GroupStdioTransport({
        command: server.command,
        args: server.args,
        env: childEnv(options.parentEnv, server.env, server.passEnv),
        cwd: server.cwd,
        onStderr: (text) => {
          stderr = (stderr + text).slice(-STDERR_TAIL)
        },
      })
      transport = stdio
      pid = () => stdio.pid
      exitStatus = () => stdio.exitStatus
    } else {
      transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { ...server.headers } },
      })
    }
    const tracker = new DeliveryTracker(transport)
    const client = new Client(CLIENT_INFO, { capabilities: {} })
    let connection: Connection | undefined
    client.onclose = () => {
      if (connection && !connection.#closing) {
        connection.#closing = true
        options.onLost()
      }
    }
    client.onerror = () => {}
    const deadline = AbortSignal.timeout(options.timeoutMs)
    try {
      await client.connect(tracker, { timeout: options.timeoutMs, signal: deadline })
      connection = new Connection(client, tracker, pid(), () => stderr)
      connection.#listing = await connection.listTools(server.name, Math.max(1, options.timeoutMs))
      return connection
    } catch (error) {
      if (connection) connection.#closing = true
      await client.close().catch(() => {})
      await transport.close().catch(() => {})
      // Give the exit a moment to be recorded: "Connection closed" alone does not say the process died, or how.
      if (server.transport === 'stdio' && exitStatus() === undefined)
        await new Promise((done) => setTimeout(done, 50))
      throw new ConnectError(describeConnectError(error, exitStatus()), stderr, error)
    }
  }

  /** `tools/list` (every page) read without the SDK's all-or-nothing validation, then judged tool by tool. */
  async listTools(server: string, timeoutMs: number): Promise<IntakeResult> {
    const raw: unknown[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = (await this.client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ANY_RESULT as never,
        { timeout: timeoutMs },
      )) as RawResult
      if (!Array.isArray(result?.tools)) throw new Error('tools/list returned no `tools` array')
      raw.push(...result.tools)
      cursor =
        typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined
      if (cursor === undefined) break
    }
    this.#listing = intakeToolList(raw, { server })
    return this.#listing
  }

  /**
   * Sends one tracked request. Resolves with the raw result, or rejects with the SDK's error and the request's
   * fate on the wire (see {@link DeliveryTracker}).
   */
  async tracked(
    method: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<
    | { ok: true; result: RawResult }
    | { ok: false; error: unknown; fate: ReturnType<DeliveryTracker['settle']> }
  > {
    const tag = this.tracker.tag()
    const meta = { ...((params._meta as Record<string, unknown> | undefined) ?? {}), [TRACK_KEY]: tag }
    try {
      const result = (await this.client.request(
        { method, params: { ...params, _meta: meta } } as never,
        ANY_RESULT as never,
        {
          timeout: options.timeoutMs,
          ...(options.signal ? { signal: options.signal } : {}),
        },
      )) as RawResult
      this.tracker.settle(tag)
      return { ok: true, result }
    } catch (error) {
      return { ok: false, error, fate: this.tracker.settle(tag) }
    }
  }

  /** Closes the client and the transport (stdio: the whole process group). Idempotent. */
  async close(): Promise<void> {
    this.#closing = true
    const inner = this.tracker.inner
    if (inner instanceof StreamableHTTPClientTransport) await inner.terminateSession().catch(() => {})
    await this.client.close().catch(() => {})
    await inner.close().catch(() => {})
  }
}

/** A failed connection attempt: the reason (no command line, no env), with the server's stderr kept apart. */
export class ConnectError extends Error {
  override readonly name = 'ConnectError'
  readonly stderr: string
  constructor(message: string, stderr: string, cause: unknown) {
    super(message, { cause })
    this.stderr = stderr
  }
}

/** The reason, without the command line (status and panel show it): what failed and what to check. */
function describeConnectError(error: unknown, exitStatus: string | undefined): string {
  const code = (error as { code?: unknown })?.code
  const syscall = (error as { syscall?: unknown })?.syscall
  if (typeof syscall === 'string' && syscall.startsWith('spawn'))
    return code === 'ENOENT'
      ? 'the server process could not be started: command not found (spawn ENOENT); check its `command` and PATH'
      : `the server process could not be started (${String(code)}); check its \`command\``
  if (exitStatus !== undefined)
    return `the server process exited (${exitStatus}) before it answered; its stderr tail says why`
  if (error instanceof Error && error.name === 'TimeoutError') return 'connect timed out (connectTimeoutMs)'
  const message = error instanceof Error ? error.message : String(error)
  return `connect failed: ${message.split('\n')[0]!.slice(0, 300)}`
}
