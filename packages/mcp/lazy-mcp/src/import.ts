import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import {
  closestName,
  isPlainObject,
  type LazyMcpConfig,
  LazyMcpConfigError,
  MIN_IDLE_DISCONNECT_MS,
  parseServer,
  readEnvNames,
  readLifecycle,
  readServerName,
  readStringArray,
  readStringMap,
  type ServerConfig,
  type ServerOverride,
  type StandardServerEntry,
} from './config.ts'

/** What import resolution reads from the host; injected so tests never depend on the real environment. */
export interface ImportContext {
  /** Used for `${VAR}` / `$VAR` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Home directory for a leading `~/`. */
  readonly home: string
  /** Base for relative `configPaths`. */
  readonly cwd: string
  readonly readFile?: ((path: string) => Promise<string>) | undefined
}

export interface ResolvedServers {
  readonly servers: readonly ServerConfig[]
  /** Tolerated problems (a missing file, an override that matched nothing); never values of variables. */
  readonly warnings: readonly string[]
}

/** Expands `${VAR}` and `$VAR`; an unknown name stays literally in place so the mistake stays visible. */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, bare) => {
    const value = env[(braced ?? bare) as string]
    return value === undefined ? whole : value
  })
}

/** `~/x` → `<home>/x`; anything else unchanged. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home
  return path.startsWith('~/') ? `${home}${path.slice(1)}` : path
}

const IGNORED_STANDARD_KEYS = new Set([
  // Pi tuning with no equivalent here.
  'directTools',
  'includeTools',
  'excludeTools',
  'searchKeywords',
])

/**
 * Translates one standard `mcpServers` entry: `command`/`args`/`env`/`cwd` (+ `passEnv` / Codex's `env_vars`) → stdio, `url`/`headers` →
 * streamable-http, Pi's `lifecycle` and `idleTimeout` (minutes) carried over. Returns `undefined` for an entry
 * that is switched off (`disabled: true` / `enabled: false`).
 */
export function translateStandardEntry(
  name: string,
  entry: StandardServerEntry,
  where: string,
  context: ImportContext,
): ServerConfig | undefined {
  const path = `${where}.${name}`
  readServerName(name, path)
  if (entry.disabled === true || entry.enabled === false) return undefined
  const type = entry.type ?? entry.transport
  if (type === 'sse')
    throw new LazyMcpConfigError(`${path}.type`, 'SSE is not supported; use a Streamable HTTP endpoint')
  const expand = (text: string): string => expandVars(text, context.env)
  const common: Record<string, unknown> = { name }
  if (typeof entry.description === 'string' && entry.description !== '')
    common.description = entry.description
  if (entry.lifecycle !== undefined) common.lifecycle = readLifecycle(entry.lifecycle, `${path}.lifecycle`)
  if (entry.alwaysLoad === true) common.alwaysLoad = true
  if (entry.idleTimeout !== undefined) {
    const minutes = entry.idleTimeout
    if (typeof minutes !== 'number' || !(minutes >= 0))
      throw new LazyMcpConfigError(
        `${path}.idleTimeout`,
        'must be a number of minutes (Pi), 0 to never idle out',
      )
    if (minutes === 0) {
      // Pi's "0 disables the idle timeout": keep the server once it has started.
      if (common.lifecycle === undefined || common.lifecycle === 'lazy') common.lifecycle = 'lazy-keep-alive'
    } else common.idleDisconnectMs = Math.max(MIN_IDLE_DISCONNECT_MS, Math.round(minutes * 60_000))
  }
  const hasCommand = entry.command !== undefined
  const hasUrl = entry.url !== undefined
  if (hasCommand && hasUrl)
    throw new LazyMcpConfigError(path, 'has both `command` and `url`; a server is either stdio or HTTP')
  if (hasCommand) {
    const command = entry.command
    if (typeof command !== 'string' || command === '')
      throw new LazyMcpConfigError(`${path}.command`, 'must be a non-empty string')
    const server: Record<string, unknown> = {
      ...common,
      transport: 'stdio',
      command: expandHome(command, context.home),
      args: entry.args === undefined ? [] : readStringArray(entry.args, `${path}.args`).map(expand),
      env:
        entry.env === undefined
          ? {}
          : Object.fromEntries(
              Object.entries(readStringMap(entry.env, `${path}.env`)).map(([key, value]) => [
                key,
                expand(value),
              ]),
            ),
    }
    // Names of parent variables to pass through: ours (`passEnv`) and Codex's `env_vars`, which mean the same.
    const passEnv = entry.passEnv ?? entry.env_vars
    if (passEnv !== undefined)
      server.passEnv = readEnvNames(
        passEnv,
        `${path}.${entry.passEnv !== undefined ? 'passEnv' : 'env_vars'}`,
      )
    if (entry.cwd !== undefined) {
      if (typeof entry.cwd !== 'string' || entry.cwd === '')
        throw new LazyMcpConfigError(`${path}.cwd`, 'must be a non-empty string')
      server.cwd = expandHome(expand(entry.cwd), context.home)
    }
    return parseServer(server, path)
  }
  if (hasUrl) {
    if (typeof entry.url !== 'string') throw new LazyMcpConfigError(`${path}.url`, 'must be a string')
    const server: Record<string, unknown> = {
      ...common,
      transport: 'streamable-http',
      url: expand(entry.url),
      headers:
        entry.headers === undefined
          ? {}
          : Object.fromEntries(
              Object.entries(readStringMap(entry.headers, `${path}.headers`)).map(([key, value]) => [
                key,
                expand(value),
              ]),
            ),
    }
    return parseServer(server, path)
  }
  const misspelt = Object.keys(entry)
    .map((key) => ({ key, guess: closestName(key, ['command', 'url', 'args', 'env', 'headers', 'cwd']) }))
    .find(({ key, guess }) => guess !== undefined && guess !== key)
  throw new LazyMcpConfigError(
    path,
    misspelt === undefined
      ? 'has neither `command` (stdio) nor `url` (Streamable HTTP); add one'
      : `has neither \`command\` (stdio) nor \`url\` (Streamable HTTP): unknown key \`${misspelt.key}\`; did you mean \`${misspelt.guess}\`?`,
  )
}

/** Keys of a standard entry this gateway ignores, for a one-line notice. */
export function ignoredKeys(entry: StandardServerEntry): string[] {
  return Object.keys(entry).filter((key) => IGNORED_STANDARD_KEYS.has(key))
}

/**
 * Reads one standard file. Missing is tolerated (a warning); malformed JSON, a non-object `mcpServers` and any
 * invalid entry are loud. Returns the translated servers by name; `null` marks a switched-off entry.
 */
async function readStandardFile(
  file: string,
  context: ImportContext,
  warnings: string[],
): Promise<Map<string, ServerConfig | null>> {
  const read = context.readFile ?? ((path: string) => readFile(path, 'utf8'))
  let text: string
  try {
    text = await read(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      warnings.push(`configPaths: ${file} does not exist; skipped`)
      return new Map()
    }
    throw new LazyMcpConfigError(file, `cannot be read: ${(error as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new LazyMcpConfigError(file, `is not valid JSON (${(error as Error).message}); fix or remove it`)
  }
  if (!isPlainObject(parsed)) throw new LazyMcpConfigError(file, 'must hold a JSON object with `mcpServers`')
  if (parsed.mcpServers === undefined) {
    warnings.push(`configPaths: ${file} has no mcpServers; nothing imported`)
    return new Map()
  }
  return translateMap(parsed.mcpServers, `${file}: mcpServers`, context, warnings)
}

function translateMap(
  map: unknown,
  where: string,
  context: ImportContext,
  warnings: string[],
): Map<string, ServerConfig | null> {
  if (!isPlainObject(map)) throw new LazyMcpConfigError(where, 'must be an object keyed by server name')
  const out = new Map<string, ServerConfig | null>()
  for (const [name, entry] of Object.entries(map)) {
    if (!isPlainObject(entry)) throw new LazyMcpConfigError(`${where}.${name}`, 'must be an object')
    const ignored = ignoredKeys(entry)
    if (ignored.length > 0)
      warnings.push(`${where}.${name}: ${ignored.join(', ')} ignored (no equivalent here)`)
    out.set(name, translateStandardEntry(name, entry, where, context) ?? null)
  }
  return out
}

function applyOverride(server: ServerConfig, patch: ServerOverride, path: string): ServerConfig {
  const { disabled: _disabled, ...fields } = patch
  return parseServer({ ...server, ...fields }, path)
}

/**
 * The effective server list. Later sources win on a name: each `configPaths` file in order, then the inline
 * `mcpServers` map, then the native `servers`, then `overrides` field by field (`disabled: true` removes the name).
 */
export async function resolveServers(
  config: LazyMcpConfig,
  context: ImportContext,
): Promise<ResolvedServers> {
  const warnings: string[] = []
  const merged = new Map<string, ServerConfig | null>()
  const layer = (entries: Map<string, ServerConfig | null>): void => {
    for (const [name, server] of entries) {
      merged.delete(name) // re-insert so the order follows the winning source
      merged.set(name, server)
    }
  }
  for (const [index, raw] of (config.configPaths ?? []).entries()) {
    if (raw === '') throw new LazyMcpConfigError(`configPaths[${index}]`, 'must be a non-empty path')
    const expanded = expandHome(expandVars(raw, context.env), context.home)
    const file = isAbsolute(expanded) ? expanded : resolve(context.cwd, expanded)
    layer(await readStandardFile(file, context, warnings))
  }
  if (config.mcpServers !== undefined) layer(translateMap(config.mcpServers, 'mcpServers', context, warnings))
  for (const server of config.servers ?? []) layer(new Map([[server.name, server]]))
  for (const [name, patch] of Object.entries(config.overrides ?? {})) {
    const current = merged.get(name)
    if (current === undefined || current === null) {
      if (patch.disabled !== true) warnings.push(`overrides.${name}: no server named "${name}"; ignored`)
      merged.delete(name)
      continue
    }
    if (patch.disabled === true) merged.delete(name)
    else merged.set(name, applyOverride(current, patch, `overrides.${name}`))
  }
  const servers = [...merged.values()].filter((server): server is ServerConfig => server !== null)
  return { servers, warnings }
}
