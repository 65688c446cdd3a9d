import type { Lifecycle } from './status-types.ts'

export const LIFECYCLES: readonly Lifecycle[] = ['lazy', 'lazy-keep-alive', 'eager', 'keep-alive']
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/
/** The shortest idle window the gateway accepts (config, panel, API). */
export const MIN_IDLE_DISCONNECT_MS = 1000
/** The longest delay a Node timer can hold. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647
export const DEFAULT_IDLE_DISCONNECT_MS = 600_000
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000
export const DEFAULT_CALL_TIMEOUT_MS = 60_000

interface ServerBase {
  /** `^[A-Za-z0-9_-]{1,32}$`, unique. */
  readonly name: string
  readonly description?: string | undefined
  readonly lifecycle: Lifecycle
  /** A per-server idle window; a server with one does not follow the gateway-wide window or the panel. */
  readonly idleDisconnectMs?: number | undefined
  /** Claude Code's per-server `alwaysLoad`: describe every tool of this server in `mcp_servers`. */
  readonly alwaysLoad?: boolean | undefined
}

export interface StdioServerConfig extends ServerBase {
  readonly transport: 'stdio'
  readonly command: string
  readonly args: readonly string[]
  /** Set over the default environment; values are never logged or cached. */
  readonly env: Readonly<Record<string, string>>
  /** Parent variables this server may see beyond the default set (names, exact). */
  readonly passEnv?: readonly string[] | undefined
  readonly cwd?: string | undefined
}

export interface HttpServerConfig extends ServerBase {
  readonly transport: 'streamable-http'
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

export type ServerConfig = StdioServerConfig | HttpServerConfig

/** A standard `mcpServers` entry (Claude Code, Cursor, `.mcp.json`, Pi), as written. */
export type StandardServerEntry = Readonly<Record<string, unknown>>

/** The native configuration, as written (the DSH plugin's `config`, or a `--config` file). */
export interface LazyMcpConfig {
  readonly idleDisconnectMs?: number | undefined
  readonly connectTimeoutMs?: number | undefined
  readonly callTimeoutMs?: number | undefined
  /** Default: `$DSH_PROFILE_DIR/lazy-mcp/tool-cache.json` when set, else `~/.dsh/lazy-mcp/tool-cache.json`. */
  readonly cachePath?: string | undefined
  /** `host:port` of the status HTTP server (`127.0.0.1:0` picks a free port); absent: no status server. */
  readonly statusListen?: string | undefined
  /** `statusListen` on a non-loopback address is refused unless this is true (then a warning is logged). */
  readonly statusAllowNonLoopback?: boolean | undefined
  /** Parent environment variables every stdio server may see beyond the default set (names, exact). */
  readonly passEnv?: readonly string[] | undefined
  /** Standard `mcpServers` files to import, in order (later wins). */
  readonly configPaths?: readonly string[] | undefined
  /** An inline standard `mcpServers` map; wins over every `configPaths` file. */
  readonly mcpServers?: Readonly<Record<string, StandardServerEntry>> | undefined
  /** Native server entries; win over every import. */
  readonly servers?: readonly ServerConfig[] | undefined
  /** Field-by-field patches applied last; `{ disabled: true }` removes the name. */
  readonly overrides?: Readonly<Record<string, ServerOverride>> | undefined
}

export interface ServerOverride {
  readonly disabled?: boolean | undefined
  readonly description?: string | undefined
  readonly lifecycle?: Lifecycle | undefined
  readonly idleDisconnectMs?: number | undefined
  readonly alwaysLoad?: boolean | undefined
  readonly command?: string | undefined
  readonly args?: readonly string[] | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
  readonly passEnv?: readonly string[] | undefined
  readonly cwd?: string | undefined
  readonly url?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** A configuration mistake, with the exact path of the value that is wrong. Activation fails with it. */
export class LazyMcpConfigError extends Error {
  override readonly name = 'LazyMcpConfigError'
  readonly code = 'INVALID_CONFIG'
  /** Where the bad value is: `servers[1].command`, `overrides.docs.lifecycle`, `<file>: mcpServers.x.url`. */
  readonly path: string
  constructor(path: string, problem: string) {
    super(`lazy-mcp config: ${path}: ${problem}`)
    this.path = path
  }
}

type Json = Readonly<Record<string, unknown>>

export function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The top-level keys of the native configuration (a `--config` file with any other key is a standard one). */
export const TOP_KEYS: ReadonlySet<string> = new Set([
  'idleDisconnectMs',
  'connectTimeoutMs',
  'callTimeoutMs',
  'cachePath',
  'statusListen',
  'statusAllowNonLoopback',
  'passEnv',
  'configPaths',
  'mcpServers',
  'servers',
  'overrides',
])
const SERVER_KEYS = new Set([
  'name',
  'transport',
  'lifecycle',
  'description',
  'idleDisconnectMs',
  'alwaysLoad',
  'command',
  'args',
  'env',
  'passEnv',
  'cwd',
  'url',
  'headers',
])
const OVERRIDE_KEYS = new Set(
  [...SERVER_KEYS, 'disabled'].filter((key) => key !== 'name' && key !== 'transport'),
)

function rejectUnknownKeys(value: Json, allowed: ReadonlySet<string>, path: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.has(key)) continue
    const guess = closestName(key, allowed)
    throw new LazyMcpConfigError(
      join(path, key),
      guess !== undefined
        ? `unknown setting; did you mean \`${guess}\`?`
        : `unknown setting; expected one of ${[...allowed].map((name) => `\`${name}\``).join(', ')}`,
    )
  }
}

/** Edit distance (insert, delete, substitute, swap adjacent), capped: only short names are compared. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  return rows[a.length]![b.length]!
}

/** The known name a misspelt key most likely meant (case-insensitive, at most 2 edits), if one stands out. */
export function closestName(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = 3
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase())
    if (distance < bestDistance) {
      best = name
      bestDistance = distance
    }
  }
  return best
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key)
  return path === '' ? segment : `${path}.${segment}`
}

export function readString(value: unknown, path: string, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new LazyMcpConfigError(path, `must be a non-empty string (${what})`)
  return value
}

export function readStringArray(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw new LazyMcpConfigError(path, 'must be an array of strings')
  return value.map((item, index) => {
    if (typeof item !== 'string') throw new LazyMcpConfigError(join(path, index), 'must be a string')
    return item
  })
}

export function readStringMap(value: unknown, path: string): Record<string, string> {
  if (!isPlainObject(value)) throw new LazyMcpConfigError(path, 'must be an object of string values')
  const map: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string')
      throw new LazyMcpConfigError(join(path, key), 'must be a string (values are passed verbatim)')
    map[key] = item
  }
  return map
}

export function readLifecycle(value: unknown, path: string): Lifecycle {
  if (typeof value !== 'string' || !(LIFECYCLES as readonly string[]).includes(value))
    throw new LazyMcpConfigError(
      path,
      `must be one of ${LIFECYCLES.join(' | ')}, got ${JSON.stringify(value)}`,
    )
  return value as Lifecycle
}

export function readMs(value: unknown, path: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_TIMER_DELAY_MS)
    throw new LazyMcpConfigError(
      path,
      `must be an integer number of milliseconds in ${min}…${MAX_TIMER_DELAY_MS}, got ${JSON.stringify(value)}`,
    )
  return value
}

/** Environment variable names (`passEnv`): exact names, no patterns, so what a server sees is never a surprise. */
export function readEnvNames(value: unknown, path: string): string[] {
  return readStringArray(value, path).map((name, index) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new LazyMcpConfigError(
        join(path, index),
        `must be an environment variable name (letters, digits, _), got ${JSON.stringify(name)}`,
      )
    return name
  })
}

function readBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new LazyMcpConfigError(path, 'must be true or false')
  return value
}

export function readServerName(value: unknown, path: string): string {
  if (typeof value !== 'string' || !SERVER_NAME_PATTERN.test(value))
    throw new LazyMcpConfigError(
      path,
      `server names match ^[A-Za-z0-9_-]{1,32}$ (letters, digits, _ and -), got ${JSON.stringify(value)}`,
    )
  return value
}

function readUrl(value: unknown, path: string): string {
  const url = readString(value, path, 'the Streamable HTTP endpoint')
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new LazyMcpConfigError(path, `must be an http(s) URL, got ${JSON.stringify(url)}`)
  return url
}

/** Validates one native `servers[]` entry; every error names its exact path. */
export function parseServer(value: unknown, path: string): ServerConfig {
  if (!isPlainObject(value)) throw new LazyMcpConfigError(path, 'must be an object')
  rejectUnknownKeys(value, SERVER_KEYS, path)
  const name = readServerName(value.name, join(path, 'name'))
  const base = {
    name,
    lifecycle:
      value.lifecycle === undefined ? 'lazy' : readLifecycle(value.lifecycle, join(path, 'lifecycle')),
    ...(value.description === undefined
      ? {}
      : { description: readString(value.description, join(path, 'description'), 'shown by mcp_servers') }),
    ...(value.idleDisconnectMs === undefined
      ? {}
      : {
          idleDisconnectMs: readMs(
            value.idleDisconnectMs,
            join(path, 'idleDisconnectMs'),
            MIN_IDLE_DISCONNECT_MS,
          ),
        }),
    ...(value.alwaysLoad === undefined
      ? {}
      : { alwaysLoad: readBoolean(value.alwaysLoad, join(path, 'alwaysLoad')) }),
  } as const
  const transport = value.transport
  if (transport === 'stdio') {
    for (const key of ['url', 'headers'])
      if (value[key] !== undefined)
        throw new LazyMcpConfigError(join(path, key), 'applies to streamable-http servers, not stdio')
    return {
      ...base,
      transport,
      command: readString(value.command, join(path, 'command'), 'stdio servers need the command to run'),
      args: value.args === undefined ? [] : readStringArray(value.args, join(path, 'args')),
      env: value.env === undefined ? {} : readStringMap(value.env, join(path, 'env')),
      ...(value.passEnv === undefined ? {} : { passEnv: readEnvNames(value.passEnv, join(path, 'passEnv')) }),
      ...(value.cwd === undefined ? {} : { cwd: readString(value.cwd, join(path, 'cwd'), 'a directory') }),
    }
  }
  if (transport === 'streamable-http') {
    for (const key of ['command', 'args', 'env', 'passEnv', 'cwd'])
      if (value[key] !== undefined)
        throw new LazyMcpConfigError(join(path, key), 'applies to stdio servers, not streamable-http')
    return {
      ...base,
      transport,
      url: readUrl(value.url, join(path, 'url')),
      headers: value.headers === undefined ? {} : readStringMap(value.headers, join(path, 'headers')),
    }
  }
  if (transport === 'sse')
    throw new LazyMcpConfigError(join(path, 'transport'), 'SSE is not supported; use streamable-http')
  throw new LazyMcpConfigError(
    join(path, 'transport'),
    `must be "stdio" or "streamable-http", got ${JSON.stringify(transport)}`,
  )
}

function parseOverride(value: unknown, path: string): ServerOverride {
  if (!isPlainObject(value)) throw new LazyMcpConfigError(path, 'must be an object of fields to patch')
  rejectUnknownKeys(value, OVERRIDE_KEYS, path)
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const at = join(path, key)
    if (key === 'disabled' || key === 'alwaysLoad') out[key] = readBoolean(item, at)
    else if (key === 'lifecycle') out[key] = readLifecycle(item, at)
    else if (key === 'idleDisconnectMs') out[key] = readMs(item, at, MIN_IDLE_DISCONNECT_MS)
    else if (key === 'args') out[key] = readStringArray(item, at)
    else if (key === 'passEnv') out[key] = readEnvNames(item, at)
    else if (key === 'env' || key === 'headers') out[key] = readStringMap(item, at)
    else if (key === 'url') out[key] = readUrl(item, at)
    else out[key] = readString(item, at, key)
  }
  return out as ServerOverride
}

/**
 * Validates the native configuration. Every error is a {@link LazyMcpConfigError} naming the exact path; an
 * unknown setting is an error too, because a misspelt `idleDisconectMs` must not silently mean the default.
 */
export function parseConfig(value: unknown): LazyMcpConfig {
  if (value === undefined || value === null) return {}
  if (!isPlainObject(value)) throw new LazyMcpConfigError('(root)', 'must be an object')
  rejectUnknownKeys(value, TOP_KEYS, '')
  const servers =
    value.servers === undefined
      ? undefined
      : (() => {
          if (!Array.isArray(value.servers)) throw new LazyMcpConfigError('servers', 'must be an array')
          const seen = new Set<string>()
          return value.servers.map((entry, index) => {
            const server = parseServer(entry, `servers[${index}]`)
            if (seen.has(server.name))
              throw new LazyMcpConfigError(
                `servers[${index}].name`,
                `duplicate server name "${server.name}"; names are unique`,
              )
            seen.add(server.name)
            return server
          })
        })()
  let overrides: Record<string, ServerOverride> | undefined
  if (value.overrides !== undefined) {
    if (!isPlainObject(value.overrides))
      throw new LazyMcpConfigError('overrides', 'must be an object keyed by server')
    overrides = {}
    for (const [name, patch] of Object.entries(value.overrides))
      overrides[name] = parseOverride(patch, join('overrides', name))
  }
  let mcpServers: Record<string, StandardServerEntry> | undefined
  if (value.mcpServers !== undefined) {
    if (!isPlainObject(value.mcpServers))
      throw new LazyMcpConfigError('mcpServers', 'must be an object keyed by server name')
    mcpServers = {}
    for (const [name, entry] of Object.entries(value.mcpServers)) {
      if (!isPlainObject(entry)) throw new LazyMcpConfigError(join('mcpServers', name), 'must be an object')
      mcpServers[name] = entry
    }
  }
  const min = (key: string, floor: number): number | undefined =>
    value[key] === undefined ? undefined : readMs(value[key], key, floor)
  return {
    idleDisconnectMs: min('idleDisconnectMs', MIN_IDLE_DISCONNECT_MS),
    connectTimeoutMs: min('connectTimeoutMs', 1),
    callTimeoutMs: min('callTimeoutMs', 1),
    cachePath:
      value.cachePath === undefined ? undefined : readString(value.cachePath, 'cachePath', 'a file path'),
    statusAllowNonLoopback:
      value.statusAllowNonLoopback === undefined
        ? undefined
        : readBoolean(value.statusAllowNonLoopback, 'statusAllowNonLoopback'),
    passEnv: value.passEnv === undefined ? undefined : readEnvNames(value.passEnv, 'passEnv'),
    statusListen:
      value.statusListen === undefined
        ? undefined
        : parseListen(readString(value.statusListen, 'statusListen', 'host:port'), 'statusListen') &&
          String(value.statusListen),
    configPaths:
      value.configPaths === undefined ? undefined : readStringArray(value.configPaths, 'configPaths'),
    mcpServers,
    servers,
    overrides,
  }
}

/** `host:port` (`[::1]:0` for IPv6) → its parts; the port may be 0 (any free port). */
export function parseListen(text: string, path = 'statusListen'): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text)
  const port = match ? Number(match[3]) : Number.NaN
  if (!match || port > 65_535)
    throw new LazyMcpConfigError(
      path,
      `must be host:port (for example 127.0.0.1:0), got ${JSON.stringify(text)}`,
    )
  return { host: (match[1] ?? match[2])!, port }
}
