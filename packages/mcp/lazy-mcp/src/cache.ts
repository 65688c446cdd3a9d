import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ListedTool } from '@dsh-harden/mcp-client'
import type { ServerConfig } from './config.ts'

export const CACHE_VERSION = 1

/**
 * The cache key of a server: its transport, command, arguments, working directory, URL and the *names* of its
 * env entries. Changing any of them makes the old entry unusable, so a stale list never describes a server that
 * was reconfigured since. Env values never reach the hash or the file.
 */
export function fingerprint(server: ServerConfig): string {
  const identity =
    server.transport === 'stdio'
      ? {
          transport: server.transport,
          command: server.command,
          args: server.args,
          cwd: server.cwd ?? null,
          envKeys: Object.keys(server.env).sort(),
        }
      : { transport: server.transport, url: server.url }
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)
}

/**
 * Where the cache lives unless `cachePath` is set: `$DSH_PROFILE_DIR/lazy-mcp/tool-cache.json` when that variable
 * exists, else `~/.dsh/lazy-mcp/tool-cache.json`. The Host process does not inherit `DSH_PROFILE_DIR` (it is
 * injected into shell tool calls, not the Host), so the home fallback is the path that works in production.
 */
export function resolveCachePath(
  explicit: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  if (explicit !== undefined && explicit !== '') return explicit
  const profile = env.DSH_PROFILE_DIR
  if (profile !== undefined && profile !== '') return join(profile, 'lazy-mcp', 'tool-cache.json')
  return join(home, '.dsh', 'lazy-mcp', 'tool-cache.json')
}

export interface CachedServer {
  readonly fingerprint: string
  readonly savedAt: number
  readonly tools: readonly ListedTool[]
}

interface CacheFile {
  readonly version: number
  readonly servers: Readonly<Record<string, CachedServer>>
}

/** Writes `text` to `path` through a sibling temp file and a rename, so a reader sees the old or the new file. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temp, text, { encoding: 'utf8', flush: true })
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

function isCachedServer(value: unknown): value is CachedServer {
  if (value === null || typeof value !== 'object') return false
  const entry = value as Record<string, unknown>
  return (
    typeof entry.fingerprint === 'string' &&
    typeof entry.savedAt === 'number' &&
    Array.isArray(entry.tools) &&
    entry.tools.every(
      (tool) =>
        tool !== null && typeof tool === 'object' && typeof (tool as { name?: unknown }).name === 'string',
    )
  )
}

/**
 * The tool-metadata cache: one JSON file, read once, rewritten atomically after every change. A missing,
 * unreadable, malformed or wrong-version file is never an error: it only means nothing is cached yet.
 */
export class MetadataCache {
  readonly path: string
  #entries = new Map<string, CachedServer>()
  #loaded: Promise<void> | undefined
  #writing: Promise<void> = Promise.resolve()
  #dirty = false
  readonly #onError: (message: string) => void

  constructor(path: string, onError: (message: string) => void = () => {}) {
    this.path = path
    this.#onError = onError
  }

  load(): Promise<void> {
    this.#loaded ??= (async () => {
      let text: string
      try {
        text = await readFile(this.path, 'utf8')
      } catch {
        return
      }
      try {
        const parsed = JSON.parse(text) as CacheFile
        if (
          parsed?.version !== CACHE_VERSION ||
          parsed.servers === null ||
          typeof parsed.servers !== 'object'
        )
          return
        for (const [name, entry] of Object.entries(parsed.servers))
          if (isCachedServer(entry)) this.#entries.set(name, entry)
      } catch {
        // Corrupt: start empty; the next successful connection rewrites it.
      }
    })()
    return this.#loaded
  }

  /** The cached tools for `name`, only if they were listed under the same fingerprint. */
  get(name: string, print: string): CachedServer | undefined {
    const entry = this.#entries.get(name)
    return entry?.fingerprint === print ? entry : undefined
  }

  /** Every usable entry for the given servers (for search over dormant catalogs). */
  entries(): ReadonlyMap<string, CachedServer> {
    return this.#entries
  }

  /** Records a live listing and schedules an atomic rewrite; resolves when that write has landed (or failed). */
  put(name: string, entry: CachedServer): Promise<void> {
    this.#entries.set(name, entry)
    return this.#scheduleWrite()
  }

  #scheduleWrite(): Promise<void> {
    this.#dirty = true
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty) return
      this.#dirty = false
      const file: CacheFile = { version: CACHE_VERSION, servers: Object.fromEntries(this.#entries) }
      try {
        await writeAtomic(this.path, `${JSON.stringify(file)}\n`)
      } catch (error) {
        this.#onError(`cannot write the tool cache ${this.path}: ${(error as Error).message}`)
        throw error
      }
    })
    const landed = this.#writing
    this.#writing = this.#writing.catch(() => {})
    return landed
  }

  /** Waits for every scheduled write (used by dispose). */
  async flush(): Promise<void> {
    await this.#writing
  }
}

/** The panel's idle-window override, persisted beside the cache so the gateway owns exactly one directory. */
export class SettingsStore {
  readonly path: string
  constructor(cachePath: string) {
    this.path = join(dirname(cachePath), 'settings.json')
  }

  /** The stored override, or undefined when there is none (missing or unreadable file, or a bad value). */
  async readIdleOverride(valid: (ms: number) => boolean): Promise<number | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as { idleDisconnectMs?: unknown }
      const ms = parsed?.idleDisconnectMs
      return typeof ms === 'number' && valid(ms) ? ms : undefined
    } catch {
      return undefined
    }
  }

  writeIdleOverride(ms: number): Promise<void> {
    return writeAtomic(this.path, `${JSON.stringify({ idleDisconnectMs: ms })}\n`)
  }

  /** "No override" is the file's absence, not an empty object. */
  async clear(): Promise<void> {
    await rm(this.path, { force: true })
  }
}
