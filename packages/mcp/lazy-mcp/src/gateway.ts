import type { ListedTool, ToolDiagnostic } from '@dsh-harden/mcp-client'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { fingerprint, MetadataCache, SettingsStore } from './cache.ts'
import { type GatewayClock, SYSTEM_CLOCK } from './clock.ts'
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_DISCONNECT_MS,
  MAX_TIMER_DELAY_MS,
  MIN_IDLE_DISCONNECT_MS,
  type ServerConfig,
} from './config.ts'
import { ConnectError, Connection, type RawResult } from './connection.ts'
import { type Delivery, DeliveryError, deliveryOf } from './delivery.ts'
import {
  isAlwaysLoad,
  renderCallResult,
  renderContent,
  renderDiagnostics,
  renderResourceContents,
  renderTool,
  safetyNote,
  summary,
} from './render.ts'
import { type SearchCatalog, searchCatalogs } from './search.ts'
import type {
  ConnectionState,
  GatewayStatusSnapshot,
  GatewayStatusSource,
  ServerStatus,
} from './status-types.ts'

export interface GatewayLogger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export const SILENT_LOGGER: GatewayLogger = { info() {}, warn() {}, error() {} }

export interface GatewayOptions {
  readonly servers: readonly ServerConfig[]
  /** Where tool metadata is cached (see `resolveCachePath`); `settings.json` lives beside it. */
  readonly cachePath: string
  readonly idleDisconnectMs?: number | undefined
  readonly connectTimeoutMs?: number | undefined
  readonly callTimeoutMs?: number | undefined
  /** The environment stdio servers inherit (scrubbed first). Default `process.env`. */
  readonly parentEnv?: Readonly<Record<string, string | undefined>> | undefined
  readonly logger?: GatewayLogger | undefined
  /** What idle release and timestamps run on. Default the system clock. */
  readonly clock?: GatewayClock | undefined
}

type ToolSource = ServerStatus['tools']['source']

/** Everything the gateway knows about one server. Only the gateway mutates it. */
interface ServerRecord {
  readonly config: ServerConfig
  readonly print: string
  state: ConnectionState
  connection: Connection | undefined
  connecting: Promise<Connection> | undefined
  closing: Promise<void> | undefined
  /** The last list read in this process (kept after release as the `memory` fallback). */
  listed: readonly ListedTool[] | undefined
  diagnostics: readonly ToolDiagnostic[]
  /** Whether the cache write for `listed` has landed. */
  cacheLanded: boolean
  inFlight: number
  /** Cancels the pending idle release, if one is scheduled. */
  cancelIdle: (() => void) | undefined
  deadline: number | undefined
  lastUsedAt: number | undefined
  connections: number
  attempts: number
  releases: number
  lastError: string | undefined
  pinned: boolean
}

/** A tool list as one source describes it. */
export interface ToolListing {
  readonly server: string
  readonly source: ToolSource
  readonly tools: readonly ListedTool[]
  readonly diagnostics: readonly ToolDiagnostic[]
  readonly savedAt?: number | undefined
}

/** Extra per-server facts beyond the panel's `ServerStatus` (for tests and benches). */
export interface ServerDetail extends ServerStatus {
  readonly transport: ServerConfig['transport']
  /** Connection attempts (spawns, for stdio), successful or not. */
  readonly attempts: number
  /** Connections closed by the gateway (idle, reset, dispose). */
  readonly releases: number
  readonly inFlight: number
  /** Process-group id of the live stdio server. */
  readonly pid: number | undefined
  /** Epoch ms when the idle release is due, if a timer is armed. */
  readonly idleDeadline: number | undefined
}

function isValidIdle(ms: number): boolean {
  return Number.isInteger(ms) && ms >= MIN_IDLE_DISCONNECT_MS && ms <= MAX_TIMER_DELAY_MS
}

/**
 * The lazy MCP gateway: no server starts until something needs it, idle servers are released, tool metadata is
 * cached, and every failed call says how far it got. Transport-agnostic: the DSH plugin, the stdio MCP server and
 * tests drive the same object.
 */
export class LazyMcpGateway implements GatewayStatusSource {
  readonly cache: MetadataCache
  readonly settings: SettingsStore
  readonly #records = new Map<string, ServerRecord>()
  readonly #configIdle: number
  readonly #connectTimeoutMs: number
  readonly #callTimeoutMs: number
  readonly #parentEnv: Readonly<Record<string, string | undefined>>
  readonly #logger: GatewayLogger
  readonly #clock: GatewayClock
  #override: number | undefined
  #started: Promise<void> | undefined
  #disposed = false

  constructor(options: GatewayOptions) {
    this.#configIdle = options.idleDisconnectMs ?? DEFAULT_IDLE_DISCONNECT_MS
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
    this.#callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
    this.#parentEnv = options.parentEnv ?? process.env
    this.#logger = options.logger ?? SILENT_LOGGER
    this.#clock = options.clock ?? SYSTEM_CLOCK
    this.cache = new MetadataCache(options.cachePath, (message) => this.#logger.warn(message))
    this.settings = new SettingsStore(options.cachePath)
    for (const config of options.servers) {
      if (this.#records.has(config.name)) throw new Error(`lazy-mcp: duplicate server name "${config.name}"`)
      this.#records.set(config.name, {
        config,
        print: fingerprint(config),
        state: 'dormant',
        connection: undefined,
        connecting: undefined,
        closing: undefined,
        listed: undefined,
        diagnostics: [],
        cacheLanded: false,
        inFlight: 0,
        cancelIdle: undefined,
        deadline: undefined,
        lastUsedAt: undefined,
        connections: 0,
        attempts: 0,
        releases: 0,
        lastError: undefined,
        pinned: false,
      })
    }
  }

  /**
   * Reads the cache and the panel's idle override, then starts `eager` / `keep-alive` servers in the background.
   * Never waits for a server and never throws for one: a slow or broken server cannot hold up activation.
   */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.cache.load()
      this.#override = await this.settings.readIdleOverride(isValidIdle)
      for (const record of this.#records.values()) {
        if (record.config.lifecycle !== 'eager' && record.config.lifecycle !== 'keep-alive') continue
        this.#ensureReady(record).then(
          () => {
            if (record.inFlight === 0) this.#armIdle(record)
          },
          (error: unknown) =>
            this.#logger.warn(
              `lazy-mcp(${record.config.name}): background connect failed: ${(error as Error).message}`,
            ),
        )
      }
    })()
    return this.#started
  }

  /** Server names, in configuration order. */
  get serverNames(): readonly string[] {
    return [...this.#records.keys()]
  }

  // ── status ────────────────────────────────────────────────────────────────────────────────────────────────

  /** The effective idle window of a server, or undefined when it is never released for idleness. */
  #idleWindow(record: ServerRecord): number | undefined {
    const { lifecycle, idleDisconnectMs } = record.config
    if (lifecycle === 'lazy-keep-alive') return undefined
    if (idleDisconnectMs !== undefined) return idleDisconnectMs
    if (lifecycle === 'lazy') return this.#override ?? this.#configIdle
    return undefined
  }

  #toolSource(record: ServerRecord): { count: number; source: ToolSource } {
    if (record.state === 'ready' && record.connection)
      return { count: record.listed?.length ?? 0, source: 'live' }
    const cached = this.cache.get(record.config.name, record.print)
    if (cached && (record.listed === undefined || record.cacheLanded))
      return { count: cached.tools.length, source: 'cache' }
    if (record.listed) return { count: record.listed.length, source: 'memory' }
    return { count: 0, source: 'none' }
  }

  #status(record: ServerRecord): ServerDetail {
    return {
      name: record.config.name,
      description: record.config.description,
      lifecycle: record.config.lifecycle,
      state: record.state,
      tools: this.#toolSource(record),
      lastUsedAt: record.lastUsedAt,
      connections: record.connections,
      lastError: record.lastError,
      pinned: record.pinned,
      idleDisconnectMs: this.#idleWindow(record),
      idleDisconnectMsExplicit: record.config.idleDisconnectMs !== undefined,
      transport: record.config.transport,
      attempts: record.attempts,
      releases: record.releases,
      inFlight: record.inFlight,
      pid: record.connection?.pid,
      idleDeadline: record.cancelIdle ? record.deadline : undefined,
    }
  }

  snapshot(): GatewayStatusSnapshot {
    return {
      servers: [...this.#records.values()].map((record) => this.#status(record)),
      idleDisconnectMs: this.#override ?? this.#configIdle,
      idleOverride: this.#override !== undefined,
      at: this.#clock.now(),
    }
  }

  /** One server's status with the extra counters; throws for an unknown name. */
  detail(name: string): ServerDetail {
    return this.#status(this.#record(name))
  }

  async setIdleDisconnectMs(ms: number): Promise<void> {
    if (!isValidIdle(ms))
      throw new RangeError(
        `idleDisconnectMs must be an integer in ${MIN_IDLE_DISCONNECT_MS}…${MAX_TIMER_DELAY_MS} ms, got ${JSON.stringify(ms)}`,
      )
    await this.settings.writeIdleOverride(ms)
    this.#override = ms
    this.#restartDeadlines()
  }

  async clearIdleDisconnectMs(): Promise<void> {
    await this.settings.clear()
    this.#override = undefined
    this.#restartDeadlines()
  }

  /** Only ready servers that follow the gateway-wide window get a new deadline; dormant ones have none to move. */
  #restartDeadlines(): void {
    for (const record of this.#records.values())
      if (record.state === 'ready' && record.config.idleDisconnectMs === undefined && record.inFlight === 0)
        this.#armIdle(record)
  }

  // ── lifecycle ─────────────────────────────────────────────────────────────────────────────────────────────

  #record(name: string): ServerRecord {
    const record = this.#records.get(name)
    if (!record) {
      const known = [...this.#records.keys()]
      throw new DeliveryError(
        'not_sent',
        name,
        `no server named "${name}"; configured: ${known.length > 0 ? known.join(', ') : '(none)'}`,
      )
    }
    return record
  }

  #armIdle(record: ServerRecord): void {
    this.#disarm(record)
    const ms = this.#idleWindow(record)
    if (ms === undefined || record.state !== 'ready' || this.#disposed) return
    record.deadline = this.#clock.now() + ms
    record.cancelIdle = this.#clock.schedule(() => {
      record.cancelIdle = undefined
      void this.#release(record, 'idle')
    }, ms)
  }

  #disarm(record: ServerRecord): void {
    record.cancelIdle?.()
    record.cancelIdle = undefined
    record.deadline = undefined
  }

  /** Marks a server busy: no idle release can happen until the matching {@link #endUse}. */
  #beginUse(record: ServerRecord): void {
    record.inFlight++
    this.#disarm(record)
  }

  #endUse(record: ServerRecord): void {
    record.inFlight--
    record.lastUsedAt = this.#clock.now()
    if (record.inFlight === 0) this.#armIdle(record)
  }

  /** Connects once however many callers ask at the same time; a failure leaves the server dormant with `lastError`. */
  #ensureReady(record: ServerRecord): Promise<Connection> {
    if (this.#disposed)
      return Promise.reject(new ConnectError('the gateway has been disposed', '', undefined))
    if (record.connection && record.state === 'ready') return Promise.resolve(record.connection)
    if (record.connecting) return record.connecting
    record.state = 'connecting'
    record.attempts++
    const attempt = (async () => {
      if (record.closing) await record.closing
      let connection: Connection | undefined
      try {
        connection = await Connection.open(record.config, {
          parentEnv: this.#parentEnv,
          timeoutMs: this.#connectTimeoutMs,
          onLost: () => this.#lost(record, connection),
        })
      } catch (error) {
        record.state = 'dormant'
        record.lastError = (error as Error).message
        throw error
      }
      if (this.#disposed) {
        await connection.close()
        record.state = 'dormant'
        throw new ConnectError('the gateway has been disposed', '', undefined)
      }
      record.connection = connection
      record.state = 'ready'
      record.connections++
      record.lastError = undefined
      if (record.config.lifecycle === 'lazy-keep-alive') record.pinned = true
      this.#remember(record, connection)
      return connection
    })()
    record.connecting = attempt
    attempt.then(
      () => {
        if (record.connecting === attempt) record.connecting = undefined
      },
      () => {
        if (record.connecting === attempt) record.connecting = undefined
      },
    )
    return attempt
  }

  /** Keeps the live list in memory and writes it to the cache (atomically, in the background). */
  #remember(record: ServerRecord, connection: Connection): void {
    const { tools, diagnostics } = connection.listing
    record.listed = tools
    record.diagnostics = diagnostics
    record.cacheLanded = false
    const listed = tools
    this.cache.put(record.config.name, { fingerprint: record.print, savedAt: this.#clock.now(), tools }).then(
      () => {
        if (record.listed === listed) record.cacheLanded = true
      },
      () => {},
    )
  }

  /** The transport closed under us (the server exited): dormant, and the next use reconnects. */
  #lost(record: ServerRecord, connection: Connection | undefined): void {
    if (!connection || record.connection !== connection) return
    record.connection = undefined
    record.state = 'dormant'
    record.lastError = 'the connection closed unexpectedly (the server exited or the socket dropped)'
    this.#disarm(record)
    record.closing = connection.close().finally(() => {
      record.closing = undefined
    })
  }

  /** Closes a connection. `idle` never interrupts a call in flight; `reset` and `dispose` do. */
  async #release(record: ServerRecord, why: 'idle' | 'reset' | 'dispose'): Promise<void> {
    if (why === 'idle' && record.inFlight > 0) return
    const connection = record.connection
    this.#disarm(record)
    if (!connection) return
    record.connection = undefined
    record.state = 'dormant'
    record.releases++
    const closing = connection.close().finally(() => {
      if (record.closing === closing) record.closing = undefined
    })
    record.closing = closing
    if (why === 'idle') this.#logger.info(`lazy-mcp(${record.config.name}): released after idling`)
    await closing
  }

  /** Releases one server now (as its idle timer would, but without waiting). Never interrupts a call. */
  release(name: string): Promise<void> {
    return this.#release(this.#record(name), 'idle')
  }

  /** Closes every connection and waits for in-progress cache writes. Idempotent. */
  async dispose(): Promise<void> {
    this.#disposed = true
    const pending: Promise<unknown>[] = []
    for (const record of this.#records.values()) {
      this.#disarm(record)
      if (record.connecting) pending.push(record.connecting.catch(() => {}))
      pending.push(this.#release(record, 'dispose'))
      if (record.closing) pending.push(record.closing)
    }
    await Promise.all(pending)
    for (const record of this.#records.values()) if (record.closing) await record.closing
    await this.cache.flush().catch(() => {})
  }

  /** Runs `work` on a ready connection with the server marked busy; a connect failure is `not_sent`. */
  async #use<T>(
    record: ServerRecord,
    work: (connection: Connection, fresh: boolean) => Promise<T>,
  ): Promise<T> {
    this.#beginUse(record)
    try {
      const fresh = !(record.connection && record.state === 'ready')
      let connection: Connection
      try {
        connection = await this.#ensureReady(record)
      } catch (error) {
        const stderr =
          error instanceof ConnectError && error.stderr.trim() !== ''
            ? `\nserver stderr (tail):\n${error.stderr.trim().slice(-600)}`
            : ''
        throw new DeliveryError('not_sent', record.config.name, `${(error as Error).message}${stderr}`, {
          cause: error,
        })
      }
      return await work(connection, fresh)
    } finally {
      this.#endUse(record)
    }
  }

  /** Turns a failed tracked request into a DeliveryError; `may_have_run` also resets the connection. */
  #failed(
    record: ServerRecord,
    connection: Connection,
    what: string,
    outcome: { error: unknown; fate: Parameters<typeof deliveryOf>[0] },
    tool?: ListedTool,
  ): DeliveryError {
    const delivery: Delivery = deliveryOf(outcome.fate)
    const error = outcome.error
    let detail =
      error instanceof McpError
        ? error.code === ErrorCode.RequestTimeout
          ? `${what} timed out or was cancelled (${error.message})`
          : `${what} failed: ${error.message}`
        : `${what} failed: ${error instanceof Error ? error.message : String(error)}`
    if (delivery === 'may_have_run') {
      const note = safetyNote(tool)
      if (note) detail += `\n${note}`
      record.lastError = `${what}: outcome unknown; the connection was reset`
      // The transport may be wedged: the next call starts from a clean one.
      if (record.connection === connection) void this.#release(record, 'reset')
      else void connection.close()
    } else if (delivery === 'not_sent') record.lastError = detail
    return new DeliveryError(delivery, record.config.name, detail, { cause: error })
  }

  // ── the five gateway operations ───────────────────────────────────────────────────────────────────────────

  /** `mcp_servers`: every server with its lifecycle, state and metadata source. Never connects. */
  servers(): string {
    if (this.#records.size === 0) return 'No MCP servers are configured.'
    const lines: string[] = []
    for (const record of this.#records.values()) {
      const status = this.#status(record)
      const flags = [
        `lifecycle=${status.lifecycle}`,
        `state=${status.state}`,
        `tools=${status.tools.source === 'none' ? '?' : status.tools.count}(${status.tools.source === 'none' ? 'not listed yet' : status.tools.source})`,
        `connections=${status.connections}`,
        ...(status.pinned ? ['pinned=yes'] : []),
      ]
      lines.push(
        `- ${status.name}: ${flags.join(' ')}${status.description ? ` — ${status.description}` : ''}`,
      )
      if (status.lastError) lines.push(`  last error: ${status.lastError}`)
      const listing = this.#bestListing(record)
      const hot = listing
        ? listing.tools.filter((tool) => record.config.alwaysLoad === true || isAlwaysLoad(tool))
        : []
      for (const tool of hot) lines.push(`  ${renderTool(tool).replace(/\n/g, '\n  ')}`)
    }
    lines.push(
      '',
      "mcp_tools { server } lists a server's tools (from cache while it sleeps); mcp_tools { query } searches every catalog; mcp_call runs a tool, starting the server if needed.",
    )
    return lines.join('\n')
  }

  /** The freshest list available without connecting. */
  #bestListing(record: ServerRecord): ToolListing | undefined {
    const name = record.config.name
    if (record.state === 'ready' && record.listed)
      return { server: name, source: 'live', tools: record.listed, diagnostics: record.diagnostics }
    const cached = this.cache.get(name, record.print)
    if (cached && (record.listed === undefined || record.cacheLanded))
      return {
        server: name,
        source: 'cache',
        tools: cached.tools,
        diagnostics: record.diagnostics,
        savedAt: cached.savedAt,
      }
    if (record.listed)
      return { server: name, source: 'memory', tools: record.listed, diagnostics: record.diagnostics }
    return undefined
  }

  /**
   * `mcp_tools { server }`: the server's tools with their input schemas. Without `refresh` it never connects: a live
   * list if the server is up, else the cache, else the in-process list. `refresh: true` connects and re-reads.
   */
  async listTools(
    name: string,
    options: { refresh?: boolean | undefined } = {},
  ): Promise<ToolListing | undefined> {
    const record = this.#record(name)
    if (!options.refresh) return this.#bestListing(record)
    return this.#use(record, async (connection, fresh) => {
      // A connection opened for this call has just read the list; an older one re-reads it.
      if (!fresh) {
        try {
          await connection.listTools(name, this.#connectTimeoutMs)
        } catch (error) {
          throw new DeliveryError('may_have_run', name, `tools/list failed: ${(error as Error).message}`, {
            cause: error,
          })
        }
        this.#remember(record, connection)
      }
      return { server: name, source: 'live', tools: record.listed ?? [], diagnostics: record.diagnostics }
    })
  }

  /** `mcp_tools { query }`: ranked search over every known catalog (dormant servers through the cache). */
  search(query: string, limit = 10): { hits: ReturnType<typeof searchCatalogs>; unlisted: string[] } {
    const catalogs: SearchCatalog[] = []
    const unlisted: string[] = []
    for (const record of this.#records.values()) {
      const listing = this.#bestListing(record)
      if (!listing || listing.source === 'none') {
        unlisted.push(record.config.name)
        continue
      }
      catalogs.push({
        server: record.config.name,
        serverDescription: record.config.description,
        tools: listing.tools,
        source: listing.source,
      })
    }
    return { hits: searchCatalogs(catalogs, query, limit), unlisted }
  }

  /** `mcp_call`: runs one tool. Every failure is a {@link DeliveryError}; nothing is ever retried. */
  async call(
    name: string,
    tool: string,
    args: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<string> {
    const record = this.#record(name)
    return this.#use(record, async (connection) => {
      const listed = connection.listing.tools.find((candidate) => candidate.name === tool)
      if (!listed) {
        const isolated = connection.listing.diagnostics.find(
          (diagnostic) => diagnostic.tool === tool && diagnostic.effect === 'isolated',
        )
        if (isolated)
          throw new DeliveryError(
            'not_sent',
            name,
            `tool "${tool}" was left out because its ${isolated.schema} has no single meaning: ${renderDiagnostics([isolated]).join('')}`,
          )
        const names = connection.listing.tools.map((candidate) => candidate.name)
        const close = names.filter((candidate) => similar(candidate, tool))
        throw new DeliveryError(
          'not_sent',
          name,
          `no tool named "${tool}"${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''} (mcp_tools { server: "${name}" } lists them)`,
        )
      }
      const outcome = await connection.tracked(
        'tools/call',
        { name: tool, arguments: args },
        { timeoutMs: this.#callTimeoutMs, signal: options.signal },
      )
      if (!outcome.ok) throw this.#failed(record, connection, `tools/call ${tool}`, outcome, listed)
      const result = outcome.result
      if (result.isError === true)
        throw new DeliveryError(
          'server_error',
          name,
          `tool "${tool}" reported an error:\n${renderCallResult(result)}`,
        )
      return renderCallResult(result)
    })
  }

  /** `mcp_resources`: resources and templates; a server without resources gets a sentence, not a failure. */
  async resources(name: string, options: { signal?: AbortSignal | undefined } = {}): Promise<string> {
    const record = this.#record(name)
    return this.#use(record, async (connection) => {
      if (!connection.client.getServerCapabilities()?.resources)
        return `${name} offers no resources (it does not declare the resources capability).`
      const lines: string[] = []
      const list = async (
        method: string,
        key: string,
      ): Promise<Record<string, unknown>[] | 'unsupported'> => {
        const items: Record<string, unknown>[] = []
        let cursor: string | undefined
        for (let page = 0; page < 50; page++) {
          const outcome = await connection.tracked(method, cursor === undefined ? {} : { cursor }, {
            timeoutMs: this.#callTimeoutMs,
            signal: options.signal,
          })
          if (!outcome.ok) {
            if (outcome.error instanceof McpError && outcome.error.code === ErrorCode.MethodNotFound)
              return 'unsupported'
            throw this.#failed(record, connection, method, outcome)
          }
          const found = outcome.result[key]
          if (Array.isArray(found)) items.push(...(found as Record<string, unknown>[]))
          const next = outcome.result.nextCursor
          cursor = typeof next === 'string' && next !== '' ? next : undefined
          if (cursor === undefined) break
        }
        return items
      }
      const resources = await list('resources/list', 'resources')
      const templates = await list('resources/templates/list', 'resourceTemplates')
      if (resources === 'unsupported' && (templates === 'unsupported' || templates.length === 0))
        return `${name} offers no resources (resources/list: method not found).`
      const items = resources === 'unsupported' ? [] : resources
      const patterns = templates === 'unsupported' ? [] : templates
      if (items.length === 0 && patterns.length === 0) return `${name} has no resources.`
      if (items.length > 0) lines.push(`Resources of ${name} (${items.length}):`)
      for (const item of items)
        lines.push(
          `- ${String(item.uri)}${item.mimeType ? ` ${String(item.mimeType)}` : ''}${item.name ? ` — ${String(item.name)}` : ''}${item.description ? `: ${summary(item.description, 120)}` : ''}`,
        )
      if (patterns.length > 0) {
        lines.push(
          `Resource templates of ${name} (${patterns.length}); replace each {variable}, then mcp_read_resource the result:`,
        )
        for (const item of patterns)
          lines.push(
            `- ${String(item.uriTemplate)}${item.mimeType ? ` ${String(item.mimeType)}` : ''}${item.name ? ` — ${String(item.name)}` : ''}`,
          )
      }
      return lines.join('\n')
    })
  }

  /** `mcp_read_resource`: one resource by exact uri; text up to 8,000 characters, binary as a size hint. */
  async readResource(
    name: string,
    uri: string,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<string> {
    const record = this.#record(name)
    return this.#use(record, async (connection) => {
      const outcome = await connection.tracked(
        'resources/read',
        { uri },
        { timeoutMs: this.#callTimeoutMs, signal: options.signal },
      )
      if (!outcome.ok) throw this.#failed(record, connection, `resources/read ${uri}`, outcome)
      return renderResourceContents((outcome.result as RawResult).contents)
    })
  }

  /** Renders a listing for `mcp_tools`. */
  static renderListing(listing: ToolListing | undefined, name: string, refreshHint: boolean): string {
    if (!listing)
      return `No tool list is known for ${name} yet (it has never been started with this configuration). Call mcp_tools { server: "${name}", refresh: true } to start it and read its tools.`
    const where =
      listing.source === 'live'
        ? 'live'
        : listing.source === 'cache'
          ? `from cache${listing.savedAt ? `, saved ${new Date(listing.savedAt).toISOString()}` : ''}; server not started`
          : "from this process's last connection; server not started"
    const lines = [`${name}: ${listing.tools.length} tools (${where})`]
    for (const tool of listing.tools) lines.push(renderTool(tool))
    const left = renderDiagnostics(listing.diagnostics)
    if (left.length > 0) lines.push(`Left out (${left.length}):`, ...left)
    if (refreshHint && listing.source !== 'live')
      lines.push('(mcp_tools { refresh: true } re-reads the live list.)')
    return lines.join('\n')
  }
}

/** Names that differ only in `-`/`_`/case, or contain one another. */
function similar(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/[-_]/g, '')
  const y = b.toLowerCase().replace(/[-_]/g, '')
  return x === y || (y.length > 2 && x.includes(y)) || (x.length > 2 && y.includes(x))
}

export { renderContent }
