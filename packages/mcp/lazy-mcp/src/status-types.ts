/** The gateway's observable state: what the status route, the web panel and `mcp_servers` read. Never a command or env value. */
export type Lifecycle = 'lazy' | 'lazy-keep-alive' | 'eager' | 'keep-alive'

/** The three real connection states; the panel splits `ready` into "in use" and "connected" by recency. */
export type ConnectionState = 'dormant' | 'connecting' | 'ready'

export interface ServerStatus {
  readonly name: string
  readonly description?: string | undefined
  readonly lifecycle: Lifecycle
  readonly state: ConnectionState
  /** Known tool count, and where the list came from: a live connection, the in-process list, or the disk cache. */
  readonly tools: { readonly count: number; readonly source: 'live' | 'memory' | 'cache' | 'none' }
  /** Epoch ms of the last call that touched the server (`mcp_call`, `mcp_tools { refresh }`, resources). */
  readonly lastUsedAt: number | undefined
  /** How many times a connection was opened since the gateway started. */
  readonly connections: number
  /** The last connection or call failure, if the server has not connected successfully since. */
  readonly lastError: string | undefined
  /** `lazy-keep-alive` after its first connection: never released for idleness. */
  readonly pinned: boolean
  /** The idle window in force for this server, and whether it comes from the server's own configuration. */
  readonly idleDisconnectMs: number | undefined
  readonly idleDisconnectMsExplicit: boolean
}

export interface GatewayStatusSnapshot {
  readonly servers: readonly ServerStatus[]
  /** The gateway-wide idle window in force (ms), and whether the panel's override is what set it. */
  readonly idleDisconnectMs: number
  readonly idleOverride: boolean
  /** Epoch ms when the snapshot was taken. */
  readonly at: number
}

/** What the status route and panel may do: read, and set or clear the idle-window override. Never wakes a server. */
export interface GatewayStatusSource {
  snapshot(): GatewayStatusSnapshot
  /** Sets the override (validated range), restarts deadlines of ready servers without an explicit window, persists it. */
  setIdleDisconnectMs(ms: number): Promise<void>
  /** Drops the override (deletes the settings file) and restores the configured window. */
  clearIdleDisconnectMs(): Promise<void>
}
