import { listToolsRaw, type RawTool, type ServerDescriptor } from '@dsh-harden/testkit/mcp-servers'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js'

/** One server's `tools/list` as it answered, and whether the official SDK client would take the page. */
export interface ServerListing {
  readonly id: string
  readonly packageName: string
  readonly packageVersion: string
  /** `serverInfo` from `initialize`. */
  readonly serverName: string
  readonly serverVersion: string
  readonly tools: readonly RawTool[]
  /**
   * Stock DSH lists through the SDK's `Client.listTools`, which parses the whole page with `ListToolsResultSchema`:
   * one malformed tool and not one tool of the server registers. Absent when the page parses.
   */
  readonly sdkRejection?: string | undefined
  /** Set when the server could not be listed at all (it then has no tools in the table). */
  readonly failure?: string | undefined
}

/**
 * The runner passes its own environment to every server it spawns (`listToolsRaw` merges it under each launch's
 * variables). Reduced first to what the MCP SDK's stdio client passes by default (`HOME`, `LOGNAME`, `PATH`, `SHELL`,
 * `TERM`, `USER`), so no credential of the person running the table reaches a third-party server.
 */
export function reduceEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  const keep = getDefaultEnvironment()
  for (const name of Object.keys(env)) if (!(name in keep)) delete env[name]
}

function sdkRejection(tools: readonly RawTool[]): string | undefined {
  const parsed = ListToolsResultSchema.safeParse({ tools })
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]
  return issue ? `${issue.path.join('.')}: ${issue.message}` : parsed.error.message
}

async function listOne(server: ServerDescriptor, timeoutMs: number): Promise<ServerListing> {
  const base = { id: server.id, packageName: server.packageName, packageVersion: server.packageVersion }
  try {
    const listed = await listToolsRaw(server, { timeoutMs })
    return {
      ...base,
      serverName: listed.serverName,
      serverVersion: listed.version,
      tools: listed.rawTools,
      sdkRejection: sdkRejection(listed.rawTools),
    }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { ...base, serverName: '', serverVersion: '', tools: [], failure: message }
  }
}

export interface CollectOptions {
  /** Servers started at once. Default 2 (the machine's cores are shared). */
  readonly concurrency?: number
  readonly timeoutMs?: number
  readonly onListed?: (listing: ServerListing) => void
}

/** Lists every server over stdio, a few at a time, in the order given. */
export async function collectListings(
  servers: readonly ServerDescriptor[],
  options: CollectOptions = {},
): Promise<ServerListing[]> {
  const results: ServerListing[] = new Array(servers.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < servers.length) {
      const index = next++
      const listing = await listOne(servers[index]!, options.timeoutMs ?? 30_000)
      results[index] = listing
      options.onListed?.(listing)
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, servers.length) }, worker))
  return results
}
