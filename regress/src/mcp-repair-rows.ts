import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import * as DshMcpClient from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { TolerantMcpClient } from '@dsh-harden/mcp-client'
import { packageBin, SEED000_SERVER } from '@dsh-harden/mcp-client/fixtures'
import { startHttpRepair } from '@dsh-harden/mcp-repair'
import { FAULT_SERVER, startSeed000Http } from '@dsh-harden/mcp-repair/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CaseRow, RunResult } from './run-case.ts'

/**
 * Seed 000 as report rows: an MCP server whose zero-argument tools list `inputSchema: {}` (a FIXTURE reproducing the
 * report: 76 tools, 7 of them bad) and the real `server-filesystem@2025.8.21` (13 of 14 tools list only `$schema`).
 * Stock DSH registers none of their tools; with tolerant intake all register. In front of them, `dsh-harden mcp
 * repair` lets the official SDK client list every tool while the direct connection still fails (the control).
 */
const CLI = fileURLToPath(new URL('../../packages/cli/bin/dsh-harden.js', import.meta.url))
const TIMEOUT_MS = 20_000

interface Server {
  readonly id: string
  readonly source: string
  readonly args: readonly string[]
  readonly tools: number
}

const SERVERS: readonly Server[] = [
  {
    id: 'seed000-fixture',
    source: 'seed 000 (FIXTURE: 76 tools, 7 with inputSchema {})',
    args: [SEED000_SERVER],
    tools: 76,
  },
  {
    id: 'server-filesystem-2025.8.21',
    source: 'server-filesystem@2025.8.21 (13 of 14 tools list only $schema)',
    args: [packageBin('server-filesystem-2025'), process.cwd()],
    tools: 14,
  },
]

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms ${what}`)), TIMEOUT_MS)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 160)
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

async function dshRow(server: Server): Promise<CaseRow> {
  const stock = await dshRegistered(server, DshMcpClient)
  const hardened = await dshRegistered(server, TolerantMcpClient)
  return {
    id: `mcp-intake-${server.id}`,
    source: server.source,
    stock: {
      outcome: stock === server.tools ? 'accepted' : 'rejected',
      detail: `DSH registers ${stock}/${server.tools} tools`,
    },
    hardened: {
      outcome: hardened === server.tools ? 'accepted' : 'rejected',
      detail: `DSH + TolerantMcpClient registers ${hardened}/${server.tools} tools`,
    },
    fixed: stock === 0 && hardened === server.tools,
  }
}

async function listThrough(args: readonly string[]): Promise<{ tools: number } | { error: string }> {
  const client = new Client({ name: 'strict-client', version: '1' })
  const transport = new StdioClientTransport({ command: process.execPath, args: [...args], stderr: 'ignore' })
  try {
    await withTimeout(client.connect(transport), 'connecting')
    const { tools } = await withTimeout(client.listTools(), 'listing tools')
    return { tools: tools.length }
  } catch (error) {
    return { error: message(error) }
  } finally {
    await client.close().catch(() => {})
  }
}

function listed(result: { tools: number } | { error: string }, expected: number, how: string): RunResult {
  return 'tools' in result
    ? {
        outcome: result.tools === expected ? 'accepted' : 'rejected',
        detail: `${how}: listTools() ${result.tools}/${expected}`,
      }
    : { outcome: 'rejected', detail: `${how}: listTools() throws ${result.error}` }
}

async function proxyRow(server: Server): Promise<CaseRow> {
  const command = [process.execPath, ...server.args]
  // The same moment: the direct connection (control) and the one through the proxy run side by side.
  const [direct, proxied] = await Promise.all([
    listThrough(server.args),
    listThrough([CLI, 'mcp', 'repair', '--', ...command]),
  ])
  return {
    id: `mcp-repair-stdio-${server.id}`,
    source: server.source,
    stock: listed(direct, server.tools, 'SDK client direct'),
    hardened: listed(proxied, server.tools, 'SDK client via dsh-harden mcp repair'),
    fixed: 'error' in direct && 'tools' in proxied && proxied.tools === server.tools,
  }
}

async function httpRow(): Promise<CaseRow> {
  const upstream = await startSeed000Http()
  const facade = await startHttpRepair({ upstream: upstream.url, log: () => {} })
  const list = async (url: string) => {
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
      source: SERVERS[0]!.source,
      stock: listed(direct, 76, 'SDK client direct (Streamable HTTP)'),
      hardened: listed(proxied, 76, 'SDK client via the HTTP facade'),
      fixed: 'error' in direct && 'tools' in proxied && proxied.tools === 76,
    }
  } finally {
    await facade.close()
    await upstream.stop()
  }
}

type Fault = (client: Client) => Promise<boolean>

const FAULTS: readonly [string, Fault][] = [
  [
    'exit mid-call → JSON-RPC error',
    async (c) =>
      c.callTool({ name: 'crash', arguments: {} }).then(
        () => false,
        (e: Error) => /before answering|Connection closed/.test(e.message),
      ),
  ],
  [
    'malformed JSON → JSON-RPC error, still serving',
    async (c) => {
      const failed = await c.callTool({ name: 'malformed', arguments: {} }).then(
        () => false,
        (e: Error) => e.message.includes('malformed JSON'),
      )
      const echo = await c.callTool({ name: 'echo', arguments: { text: 'ok' } })
      return failed && JSON.stringify(echo.content) === '[{"type":"text","text":"ok"}]'
    },
  ],
  [
    '10 MB message intact',
    async (c) => {
      const result = await c.callTool({ name: 'big', arguments: {} }, undefined, { timeout: TIMEOUT_MS })
      return (result.content as { text: string }[])[0]?.text.length === 10_000_000
    },
  ],
  [
    '1,000 concurrent calls answered',
    async (c) => {
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => c.callTool({ name: 'echo', arguments: { text: `n${i}` } })),
      )
      return results.every((r, i) => (r.content as { text: string }[])[0]?.text === `n${i}`)
    },
  ],
  ['repaired list (batch-capable upstream)', async (c) => (await c.listTools()).tools.length === 5],
]

async function faultRow(): Promise<CaseRow> {
  const outcomes: string[] = []
  for (const [label, fault] of FAULTS) {
    const client = new Client({ name: 'strict-client', version: '1' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'repair', '--', process.execPath, FAULT_SERVER],
      stderr: 'ignore',
    })
    let ok = false
    try {
      await withTimeout(client.connect(transport), 'connecting')
      ok = await withTimeout(fault(client), label)
    } catch (error) {
      outcomes.push(`${label}: ${message(error)}`)
    } finally {
      await client.close().catch(() => {})
    }
    outcomes.push(`${label}: ${ok ? 'ok' : 'FAILED'}`)
  }
  const failed = outcomes.filter((line) => !line.endsWith(': ok'))
  return {
    id: 'mcp-repair-faults',
    source: 'repair proxy faults (FIXTURE upstream)',
    stock: { outcome: 'works', detail: 'no proxy: faults reach the client as they are' },
    hardened: {
      outcome: failed.length === 0 ? 'works' : 'some-turns-fail',
      detail:
        failed.length === 0
          ? `${FAULTS.length}/${FAULTS.length} fault cases handled, none hung`
          : failed.join('; '),
    },
    fixed: failed.length === 0,
  }
}

export async function mcpRepairRows(): Promise<CaseRow[]> {
  const rows: CaseRow[] = []
  for (const server of SERVERS) rows.push(await dshRow(server))
  for (const server of SERVERS) rows.push(await proxyRow(server))
  rows.push(await httpRow())
  rows.push(await faultRow())
  return rows
}
