import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REFERENCE_SERVERS, type ServerDescriptor } from './gateway-deps.ts'

/** One configured reference server: the same launch for the stock client, the gateway and a direct SDK client. */
export interface BenchServer {
  readonly name: string
  readonly server: ServerDescriptor
  readonly command: string
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
}

export interface ServerSet {
  readonly servers: readonly BenchServer[]
  readonly root: string
  remove(): Promise<void>
}

/**
 * `count` configured servers cycling through the 5 MCP reference servers (`playwright-1`, `everything-1`, …), each
 * with its own temp working directory, launched from the installed bin with `process.execPath` (never npx).
 */
export async function referenceServerSet(count: number, only?: string): Promise<ServerSet> {
  const root = await mkdtemp(join(tmpdir(), 'dsh-harden-bench-gateway-'))
  const pool =
    only === undefined ? REFERENCE_SERVERS : REFERENCE_SERVERS.filter((server) => server.id === only)
  const servers: BenchServer[] = []
  for (let index = 0; index < count; index++) {
    const server = pool[index % pool.length]!
    const name = count <= pool.length ? server.id : `${server.id}-${Math.floor(index / pool.length) + 1}`
    const cwd = await mkdtemp(join(root, `${name}-`))
    const launch = await server.launch(cwd)
    servers.push({
      name,
      server,
      command: process.execPath,
      args: [server.binPath, ...launch.args],
      env: { ...launch.env },
      cwd,
    })
  }
  return { servers, root, remove: () => rm(root, { recursive: true, force: true }) }
}

/** The native lazy-mcp configuration of a server set. */
export function gatewayConfig(set: ServerSet, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cachePath: join(set.root, 'lazy-mcp', 'tool-cache.json'),
    servers: set.servers.map((server) => ({
      name: server.name,
      transport: 'stdio',
      description: server.server.packageName,
      command: server.command,
      args: [...server.args],
      env: server.env,
      cwd: server.cwd,
    })),
    ...extra,
  }
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
