import { describeSpawnError } from '@dsh-harden/mcp-transport'
import { judgeMcpToolList } from '@dsh-harden/tools'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { messageOf } from '../lint/inject.ts'
import type { TypedTool } from './emit.ts'
import type { ToolList } from './plugin-source.ts'

export type McpTarget =
  | {
      readonly kind: 'stdio'
      readonly command: string
      readonly args: readonly string[]
      readonly cwd: string
    }
  | { readonly kind: 'http'; readonly url: string }

/** The server could not be reached or listed; the message says which, with the server's last stderr lines. */
export class McpListError extends Error {
  override readonly name = 'McpListError'
}

/** Keep this many trailing characters of a stdio server's stderr for the error message. */
const STDERR_TAIL = 2000
/** A server that keeps returning cursors is cut off after this many pages. */
const MAX_PAGES = 1000

/**
 * Lists every tool of an MCP server with the official SDK client, page by page. When the SDK rejects the list (a
 * server sending `inputSchema: {}` makes it refuse all tools at once), the same session asks again with a plain
 * `tools/list` request and each tool is checked on its own, so one bad schema costs one tool.
 */
export async function mcpTools(target: McpTarget, timeoutMs: number): Promise<ToolList> {
  const label =
    target.kind === 'stdio' ? `MCP server \`${[target.command, ...target.args].join(' ')}\`` : target.url
  const { transport, stderrTail } = openTransport(target)
  const client = new Client({ name: 'dsh-harden-types', version: '0.1.0' })
  const notes: string[] = []
  try {
    try {
      await client.connect(transport, { timeout: timeoutMs })
    } catch (error) {
      // A command that cannot be spawned never ran: say so, not that a server is down or an address wrong.
      if (target.kind === 'stdio' && isSpawnError(error))
        throw new McpListError(describeSpawnError(target.command, error))
      throw new McpListError(
        `could not connect to ${label}: ${connectProblem(error)}${stderrOf(stderrTail())}`,
      )
    }
    const server = client.getServerVersion()?.name
    const shown = server === undefined ? label : `${server} (${label})`
    let raw: readonly unknown[]
    try {
      raw = await listWithSdk(client, timeoutMs)
    } catch (sdkError) {
      notes.push(
        `the MCP SDK rejected the tools/list result (${oneLine(messageOf(sdkError))}); listed it again with a plain tools/list request and checked each tool on its own`,
      )
      try {
        raw = await listRaw(client, timeoutMs)
      } catch (rawError) {
        throw new McpListError(
          `${shown}: tools/list failed: the SDK said ${oneLine(messageOf(sdkError))}; a plain request said ${oneLine(messageOf(rawError))}${stderrOf(stderrTail())}`,
        )
      }
    }
    return { label: shown, tools: typedTools(raw, notes), notes }
  } finally {
    await client.close().catch(() => {})
  }
}

function openTransport(target: McpTarget): { transport: Transport; stderrTail: () => string } {
  if (target.kind === 'http') {
    let url: URL
    try {
      url = new URL(target.url)
    } catch {
      throw new McpListError(
        `--mcp-url ${JSON.stringify(target.url)} is not a URL; pass e.g. http://localhost:3001/mcp`,
      )
    }
    return { transport: new StreamableHTTPClientTransport(url), stderrTail: () => '' }
  }
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    cwd: target.cwd,
    stderr: 'pipe',
  })
  let tail = ''
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    tail = (tail + chunk.toString()).slice(-STDERR_TAIL)
  })
  return { transport, stderrTail: () => tail }
}

async function listWithSdk(client: Client, timeoutMs: number): Promise<unknown[]> {
  const tools: unknown[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs })
    tools.push(...result.tools)
    cursor = result.nextCursor
    if (cursor === undefined) return tools
  }
  throw new McpListError(`tools/list returned a next page ${MAX_PAGES} times; stopping`)
}

/** `tools/list` validated only as a JSON-RPC result, so each tool can be judged on its own. */
async function listRaw(client: Client, timeoutMs: number): Promise<unknown[]> {
  const tools: unknown[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ResultSchema,
      { timeout: timeoutMs },
    )
    const list = (result as { tools?: unknown }).tools
    if (!Array.isArray(list)) throw new Error('the result has no `tools` array')
    tools.push(...list)
    const next = (result as { nextCursor?: unknown }).nextCursor
    if (typeof next !== 'string') return tools
    cursor = next
  }
  throw new McpListError(`tools/list returned a next page ${MAX_PAGES} times; stopping`)
}

/**
 * The listed tools as the MCP boundary of `@dsh-harden/tools` judges them (`judgeMcpToolList`, the verdict the DSH
 * intake and the gateway serve): a tool with a one-meaning mistake is typed from its repaired schema, and the comment
 * says so; a tool the boundary isolates for its `inputSchema` is typed `unknown`; an entry that is not a usable tool
 * (no object, no string name, a name listed twice) is left out with a note.
 */
export function typedTools(raw: readonly unknown[], notes: string[]): TypedTool[] {
  return judgeMcpToolList(raw).flatMap((verdict): TypedTool[] => {
    const listed = raw[verdict.entry] as { description?: unknown; inputSchema?: unknown } | undefined
    const description = typeof listed?.description === 'string' ? listed.description : undefined
    const entry = verdict.problems.find((problem) => problem.schema === 'tool')
    if (entry !== undefined) {
      const reasons = entry.violations.map((v) => v.message).join('; ')
      notes.push(`tools[${verdict.entry}] (${verdict.name}): ${reasons}; left out`)
      return []
    }
    const name = verdict.name
    if (verdict.tool === undefined) {
      const violations = verdict.problems.flatMap((problem) => problem.violations)
      return [{ name, description, parameters: listed?.inputSchema, violations, remarks: [] }]
    }
    const inputRepairs = verdict.repairs.filter((repair) => repair.schema === 'inputSchema')
    const repairs = inputRepairs.flatMap((repair) => repair.repaired.map((v) => `${v.rule}: ${v.message}`))
    const remarks =
      repairs.length === 0
        ? []
        : [
            `dsh-harden: typed from the server's inputSchema as repaired by the MCP intake (one meaning only): ${repairs.join('; ')}`,
          ]
    return [{ name, description, parameters: verdict.tool.inputSchema, violations: [], remarks }]
  })
}

/** The error `child_process.spawn` emits (the SDK's stdio transport rejects `connect` with it): `syscall: 'spawn …'`. */
function isSpawnError(error: unknown): error is NodeJS.ErrnoException {
  const syscall = (error as { syscall?: unknown } | null)?.syscall
  return error instanceof Error && typeof syscall === 'string' && syscall.startsWith('spawn')
}

/**
 * Why a connection failed, in plain words: `fetch` reports a refused or unresolvable URL as `TypeError: fetch failed`
 * with the reason in its `cause`, which is what the user needs (and a way to fix it).
 */
function connectProblem(error: unknown): string {
  let cause: unknown = error
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      return `${cause.message} (${code}); check that the server is running and the address is right`
    cause = cause.cause
  }
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined
  return reason === undefined ? messageOf(error) : `the request failed: ${reason}`
}

function stderrOf(tail: string): string {
  const trimmed = tail.trim()
  return trimmed === '' ? '' : `\nthe server's stderr ended with:\n${trimmed}`
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
