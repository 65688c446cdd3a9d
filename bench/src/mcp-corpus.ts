// The reference corpus lives in the regress package (its servers are regress' dependencies). Importing the loader by
// relative path keeps one list of servers and launch options; its own imports resolve from regress/node_modules.
import { loadReferenceCorpus } from '@dsh-harden/testkit/mcp-servers'

export interface McpTool {
  readonly server: string
  readonly name: string
  readonly inputSchema: unknown
}

export interface McpCorpus {
  readonly tools: readonly McpTool[]
  /** `server@version: n tools`, and every server that could not be listed with its reason. */
  readonly notes: readonly string[]
  readonly elapsedMs: number
}

/**
 * Lists the real MCP reference servers (`@playwright/mcp`, `server-everything`, `-filesystem`, `-memory`,
 * `-sequential-thinking`) over stdio, live, with the raw JSON-RPC reader: every `inputSchema` exactly as sent, with
 * no SDK validation in between. About 1 s on 2 cores. A server that fails is reported in `notes`, not thrown.
 */
export async function loadMcpCorpus(): Promise<McpCorpus> {
  const corpus = await loadReferenceCorpus({ raw: true })
  const tools: McpTool[] = []
  const notes: string[] = []
  for (const entry of corpus.entries) {
    if (!entry.ok || entry.list === undefined) {
      notes.push(`not listed ${entry.server}: ${entry.error?.message ?? 'unknown error'}`)
      continue
    }
    const { list } = entry
    notes.push(`listed ${list.packageName}@${list.packageVersion}: ${list.tools.length} tools`)
    for (const tool of list.tools)
      tools.push({ server: entry.server, name: tool.name, inputSchema: tool.inputSchema })
  }
  return { tools, notes, elapsedMs: corpus.elapsedMs }
}
