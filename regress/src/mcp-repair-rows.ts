import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import * as DshMcpClient from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { TolerantMcpClient } from '@dsh-harden/mcp-client'
import { packageBin, SEED000_SERVER } from '@dsh-harden/mcp-client/fixtures'
import { startHttpRepair } from '@dsh-harden/mcp-repair'
import { FAULT_SERVER, STDOUT_LOG_SERVER, startSeed000Http } from '@dsh-harden/mcp-repair/fixtures'
import { listToolsRaw, type ServerDescriptor } from '@dsh-harden/testkit/mcp-servers'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Observed, Row, RowKind } from './row.ts'

/**
 * Seed 000 as report rows: an MCP server whose zero-argument tools list `inputSchema: {}` (a FIXTURE reproducing the
 * report: 76 tools, 7 of them bad) and the real `server-filesystem@2025.8.21` (13 of 14 tools list only `$schema`).
 * How many tools each server offers is the server's own answer to a raw `tools/list` (no SDK validation). Stock DSH
 * registers none of their tools; with tolerant intake all register. In front of them, `dsh-harden mcp repair` lets
 * the official SDK client list every tool, while the direct connection (stock) was observed failing at the same
 * moment. The proxy's fault handling: each fault once direct, once through the proxy.
 */
const GROUP = 'mcp-intake'
const CLI = fileURLToPath(new URL('../../packages/cli/bin/dsh-harden.js', import.meta.url))
const TIMEOUT_MS = 20_000

interface Server {
  readonly id: string
  readonly source: string
  readonly args: readonly string[]
}

const SERVERS: readonly Server[] = [
  {
    id: 'seed000-fixture',
    source: 'seed 000 (FIXTURE: 76 tools, 7 with inputSchema {})',
    args: [SEED000_SERVER],
  },
  {
    id: 'server-filesystem-2025.8.21',
    source: 'server-filesystem@2025.8.21 (13 of 14 tools list only $schema)',
    args: [packageBin('server-filesystem-2025'), process.cwd()],
  },
]

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms ${what}`)), TIMEOUT_MS)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/**
 * An error's message; the SDK's schema errors (a JSON array of zod issues) become one line per issue, `path: message`,
 * every issue kept.
 */
export function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const start = text.indexOf('[')
  if (start < 0) return text
  try {
    const issues = JSON.parse(text.slice(start)) as unknown
    if (!Array.isArray(issues) || issues.length === 0) return text
    const lines = issues.map((issue: { path?: unknown[]; message?: unknown }) => {
      const path = (issue.path ?? []).map((part) =>
        typeof part === 'number' ? `[${part}]` : `.${String(part)}`,
      )
      return `${path.join('').replace(/^\./, '')}: ${String(issue.message)}`
    })
    return `${text.slice(0, start)}${count(issues.length, 'schema issue')}:\n${lines.join('\n')}`
  } catch {
    return text
  }
}

/** How many tools the server offers, by its own answer to a raw `tools/list`. */
async function offeredTools(server: Server): Promise<number> {
  const [binPath, ...args] = server.args
  const descriptor: ServerDescriptor = {
    id: server.id,
    packageName: server.id,
    packageVersion: 'as installed',
    binPath: binPath!,
    launch: () => ({ args }),
  }
  return (await listToolsRaw(descriptor, { timeoutMs: TIMEOUT_MS })).tools.length
}

async function dshRegistered(server: Server, plugin: object): Promise<number> {
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  const config = {
    transport: 'stdio',
    serverName: 'srv',
    command: process.execPath,
    args: [...server.args],
    reconnect: { enabled: false },
  }
  const fiber = app.plugin(plugin as never, config as never)
  try {
    await withTimeout(Promise.resolve(fiber), 'loading the mcp-client plugin')
    const tools = (app as unknown as { tools: { schemas(): { name: string }[] } }).tools
    return tools.schemas().filter((tool) => tool.name.startsWith('mcp__srv__')).length
  } finally {
    await fiber.dispose()
  }
}

function registered(n: number, offered: number, who: string): Observed {
  return {
    outcome: n === offered ? 'all-registered' : n === 0 ? 'none-registered' : 'some-registered',
    works: offered > 0 && n === offered,
    detail: `${who} registers ${n} of the ${count(offered, 'tool')} the server offers`,
  }
}

async function dshRow(server: Server, offered: number): Promise<Row> {
  const stock = await dshRegistered(server, DshMcpClient)
  const hardened = await dshRegistered(server, TolerantMcpClient)
  return {
    id: `mcp-intake-${server.id}`,
    group: GROUP,
    kind: 'fix',
    proves: 'DSH registers every tool of a server whose tool list a strict client refuses',
    source: server.source,
    stock: registered(stock, offered, 'DSH (dsh-mcp-client)'),
    hardened: registered(hardened, offered, 'DSH with TolerantMcpClient'),
  }
}

type Listing = { tools: number } | { error: string }

/**
 * Connects the official SDK client to a stdio server (our stderr, i.e. the log, is its stderr), uses it, closes it.
 * `errors` collects what the client reports beside its calls, from before `initialize` on (a line it cannot read, a
 * response to a request it no longer waits for).
 */
async function withStdioClient<T>(
  args: readonly string[],
  use: (client: Client, errors: readonly Error[]) => Promise<T>,
): Promise<T> {
  const client = new Client({ name: 'strict-client', version: '1' })
  const errors: Error[] = []
  client.onerror = (error) => errors.push(error)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    stderr: 'inherit',
  })
  try {
    await withTimeout(client.connect(transport), 'connecting')
    return await use(client, errors)
  } finally {
    await client.close().catch(() => {})
  }
}

async function listThrough(args: readonly string[]): Promise<Listing> {
  try {
    return await withStdioClient(args, async (client) => ({
      tools: (await withTimeout(client.listTools(), 'listing tools')).tools.length,
    }))
  } catch (error) {
    return { error: message(error) }
  }
}

function listed(result: Listing, offered: number, how: string): Observed {
  return 'tools' in result
    ? {
        outcome: result.tools === offered ? 'lists-all' : 'lists-some',
        works: offered > 0 && result.tools === offered,
        detail: `${how}: listTools() returns ${result.tools} of the ${count(offered, 'tool')} the server offers`,
      }
    : { outcome: 'list-fails', works: false, detail: `${how}: listTools() throws: ${result.error}` }
}

async function proxyRow(server: Server, offered: number): Promise<Row> {
  const command = [process.execPath, ...server.args]
  // The same moment: the direct connection and the one through the proxy run side by side.
  const [direct, proxied] = await Promise.all([
    listThrough(server.args),
    listThrough([CLI, 'mcp', 'repair', '--', ...command]),
  ])
  return {
    id: `mcp-repair-stdio-${server.id}`,
    group: GROUP,
    kind: 'fix',
    proves: 'the official SDK client lists every tool of that server through `dsh-harden mcp repair` (stdio)',
    source: server.source,
    stock: listed(direct, offered, 'SDK client direct'),
    hardened: listed(proxied, offered, 'SDK client via dsh-harden mcp repair'),
  }
}

async function httpRow(offered: number): Promise<Row> {
  const upstream = await startSeed000Http()
  const facade = await startHttpRepair({ upstream: upstream.url, log: () => {} })
  const list = async (url: string): Promise<Listing> => {
    const client = new Client({ name: 'strict-client', version: '1' })
    try {
      await withTimeout(client.connect(new StreamableHTTPClientTransport(new URL(url))), 'connecting')
      return { tools: (await withTimeout(client.listTools(), 'listing')).tools.length }
    } catch (error) {
      return { error: message(error) }
    } finally {
      await client.close().catch(() => {})
    }
  }
  try {
    const [direct, proxied] = await Promise.all([list(upstream.url), list(facade.url)])
    return {
      id: 'mcp-repair-http-seed000-fixture',
      group: GROUP,
      kind: 'fix',
      proves:
        'the official SDK client lists every tool of the seed-000 server through the HTTP facade (Streamable HTTP)',
      source: SERVERS[0]!.source,
      stock: listed(direct, offered, 'SDK client direct (Streamable HTTP)'),
      hardened: listed(proxied, offered, 'SDK client via the HTTP facade'),
    }
  } finally {
    await facade.close()
    await upstream.stop()
  }
}

export interface Fault {
  readonly id: string
  readonly kind: RowKind
  readonly label: string
  readonly proves: string
  /** The FIXTURE upstream that shows the fault (default: fault-server.ts) and the row's source. */
  readonly server?: { readonly path: string; readonly source: string }
  /** What the client got, judged on either leg alone: `handled`, and what was seen. */
  readonly handled: (client: Client, errors: readonly Error[]) => Promise<{ handled: boolean; saw: string }>
}

const FAULT_SOURCE =
  'repair proxy faults (FIXTURE upstream: packages/mcp/mcp-repair/fixtures/fault-server.ts)'

const SHORT_REQUEST = { timeout: 5_000 }

const text = (result: unknown) =>
  ((result as { content?: unknown }).content as { text?: string }[] | undefined)?.[0]?.text
const callError = (call: Promise<unknown>) =>
  call.then(
    (result) => ({ error: undefined, result, code: undefined }),
    (error: unknown) => ({
      error: message(error),
      result: undefined,
      code: error instanceof McpError ? error.code : undefined,
    }),
  )

/**
 * Whether a failed call was answered with a JSON-RPC error response: an `McpError` whose code came off the wire. The
 * SDK makes two codes itself when no answer arrives (`RequestTimeout` when its timer fires, `ConnectionClosed` when
 * the transport ends), so those two are not an answer.
 */
export function answeredWithError(code: number | undefined): boolean {
  return code !== undefined && code !== ErrorCode.RequestTimeout && code !== ErrorCode.ConnectionClosed
}

/** The SDK client's words for a second response to one request: it no longer waits for it, so it drops that one. */
const SECOND_ANSWER = /Received a response for an unknown message ID/

export const FAULTS: readonly Fault[] = [
  {
    id: 'exit-mid-call',
    kind: 'guard',
    label: 'the server exits mid-call',
    proves: 'when the server exits mid-call the client gets an error instead of hanging',
    handled: async (c) => {
      const { error } = await callError(
        c.callTool({ name: 'crash', arguments: {} }, undefined, SHORT_REQUEST),
      )
      return {
        handled: error !== undefined && /before answering|Connection closed/.test(error),
        saw: error === undefined ? 'the call returned a result' : `the call failed: ${error}`,
      }
    },
  },
  {
    id: 'malformed-json',
    kind: 'fix',
    label: 'the server answers a call with malformed JSON',
    proves:
      'a malformed JSON answer reaches the client as a JSON-RPC error for that call (not a timeout), and the connection keeps serving',
    // One predicate for both legs, on what the SDK client observes: the call is answered with an error (a code off the
    // wire, not the SDK's own timeout or closed-connection codes) and the next call on the same connection works.
    handled: async (c) => {
      const { error, code } = await callError(
        c.callTool({ name: 'malformed', arguments: {} }, undefined, SHORT_REQUEST),
      )
      const echo = await callError(
        c.callTool({ name: 'echo', arguments: { text: 'ok' } }, undefined, SHORT_REQUEST),
      )
      const served = echo.result !== undefined && text(echo.result) === 'ok'
      const answered = answeredWithError(code)
      return {
        handled: answered && served,
        saw:
          `the call ${error === undefined ? 'returned a result' : `failed with ${answered ? 'a JSON-RPC error' : 'no answer'} (code ${code ?? 'none'}): ${error}`}` +
          `; the next call ${served ? 'was answered' : `failed: ${echo.error ?? 'wrong answer'}`}`,
      }
    },
  },
  {
    id: '10mb-message',
    kind: 'guard',
    label: 'a 10 MB answer',
    proves: 'a 10 MB answer arrives intact',
    handled: async (c) => {
      const result = await c.callTool({ name: 'big', arguments: {} }, undefined, { timeout: TIMEOUT_MS })
      const length = text(result)?.length ?? 0
      return { handled: length === 10_000_000, saw: `${length.toLocaleString('en-US')} characters arrived` }
    },
  },
  {
    id: '1000-concurrent-calls',
    kind: 'guard',
    label: '1,000 concurrent calls',
    proves: '1,000 concurrent calls are each answered with their own result',
    handled: async (c) => {
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => c.callTool({ name: 'echo', arguments: { text: `n${i}` } })),
      )
      const own = results.filter((r, i) => text(r) === `n${i}`).length
      return {
        handled: own === 1000,
        saw: `${own.toLocaleString('en-US')} of 1,000 calls got their own answer`,
      }
    },
  },
  {
    id: 'list-with-empty-schema',
    kind: 'fix',
    label: 'tools/list with an `inputSchema: {}` tool (batch-capable upstream)',
    proves: 'a tool list with an `inputSchema: {}` tool is listed whole by the strict SDK client',
    handled: async (c) => {
      const { error, result } = await callError(c.listTools())
      const listed = (result as { tools?: unknown[] } | undefined)?.tools?.length
      return {
        handled: listed === 5,
        saw:
          error === undefined
            ? `listTools() returned ${count(listed ?? 0, 'tool')} of 5`
            : `listTools() threw: ${error}`,
      }
    },
  },
  {
    id: 'stdout-log-lines',
    kind: 'guard',
    label:
      'a server that logs each request it receives to stdout (a non-JSON line ending in it) before answering',
    proves:
      'a server that prints `debug: got <request>` before each answer gets its own answer, exactly one, to every request: initialize, tools/list and tools/call work',
    server: {
      path: STDOUT_LOG_SERVER,
      source:
        'issue 25: the repair proxy answered one request twice (FIXTURE upstream: packages/mcp/mcp-repair/fixtures/stdout-log-server.ts)',
    },
    // `withStdioClient` has run initialize: a made-up answer to it would have failed the connection already.
    handled: async (c, errors) => {
      const server = c.getServerVersion()?.name
      const listed = await callError(c.listTools(undefined, SHORT_REQUEST))
      const names = (listed.result as { tools?: { name: string }[] } | undefined)?.tools?.map((t) => t.name)
      const called = await callError(
        c.callTool({ name: 'echo', arguments: { text: 'its own answer' } }, undefined, SHORT_REQUEST),
      )
      const echoed = called.result === undefined ? undefined : text(called.result)
      const seconds = errors.filter((error) => SECOND_ANSWER.test(error.message)).length
      return {
        handled:
          server === 'stdout-log-fixture' &&
          names?.join() === 'echo' &&
          echoed === 'its own answer' &&
          seconds === 0,
        saw:
          `initialize answered by ${JSON.stringify(server)}` +
          `; listTools() ${listed.error === undefined ? `returned ${JSON.stringify(names)}` : `threw: ${listed.error}`}` +
          `; callTool(echo) ${called.error === undefined ? `returned ${JSON.stringify(echoed)}` : `threw: ${called.error}`}` +
          `; ${count(seconds, 'second answer')} to a request`,
      }
    },
  },
]

async function observeFault(fault: Fault, args: readonly string[], how: string): Promise<Observed> {
  try {
    const { handled, saw } = await withStdioClient(args, (client, errors) =>
      withTimeout(fault.handled(client, errors), fault.label),
    )
    return {
      outcome: handled ? 'handled' : 'mishandled',
      works: handled,
      detail: `${how}: ${fault.label}: ${saw}`,
    }
  } catch (error) {
    return { outcome: 'mishandled', works: false, detail: `${how}: ${fault.label}: ${message(error)}` }
  }
}

/** One fault against its FIXTURE upstream twice: the SDK client connected directly (stock), and through the proxy. */
export async function faultRow(fault: Fault): Promise<Row> {
  const server = fault.server?.path ?? FAULT_SERVER
  const stock = await observeFault(fault, [server], 'SDK client direct')
  const hardened = await observeFault(
    fault,
    [CLI, 'mcp', 'repair', '--', process.execPath, server],
    'SDK client via dsh-harden mcp repair',
  )
  return {
    id: `mcp-repair-fault-${fault.id}`,
    group: GROUP,
    kind: fault.kind,
    proves: fault.proves,
    source: fault.server?.source ?? FAULT_SOURCE,
    stock,
    hardened,
  }
}

export async function run(_context: GroupContext): Promise<Row[]> {
  const offered = new Map<string, number>()
  for (const server of SERVERS) offered.set(server.id, await offeredTools(server))
  const rows: Row[] = []
  for (const server of SERVERS) rows.push(await dshRow(server, offered.get(server.id)!))
  for (const server of SERVERS) rows.push(await proxyRow(server, offered.get(server.id)!))
  rows.push(await httpRow(offered.get(SERVERS[0]!.id)!))
  for (const fault of FAULTS) rows.push(await faultRow(fault))
  return rows
}
