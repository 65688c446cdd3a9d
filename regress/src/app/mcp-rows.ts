import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { mcpClientRow, type StdioServerRow } from '@dsh-harden/testkit/app-rows'
import type { Observed, Row } from '../row.ts'
import { describeTurn, rejectionsOf, resultOk, resultsSeen, type Turn, toolsSent } from './app-session.ts'
import { type AppRows, GROUP, insertLayer, profileBundles } from './group-parts.ts'

/**
 * MCP servers in the real app, as profile rows (issue 9, item 5):
 *  - seed 000: the real `@modelcontextprotocol/server-filesystem@2025.8.21` (its zod/zod-to-json-schema mismatch lists
 *    tools with `inputSchema: {}`) through the app's real `@deepseek-ai/dsh-mcp-client` row; hardened adds our
 *    tolerant intake (`@dsh-harden/mcp-client`, default export `TolerantIntake`) to the profile.
 *  - seed 004: five real servers; stock mounts each with its own `dsh-mcp-client` row (DSH starts every server at
 *    boot), hardened puts `@dsh-harden/lazy-mcp` in front of them (no server starts until a call needs it).
 * Which servers started is observed through a launcher that appends the server's name to a file before handing the
 * process to the real server entry.
 */
const require = createRequire(import.meta.url)

/** A real server's entry file, from this workspace's pinned install. */
function serverEntry(pkg: string, file = 'dist/index.js'): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file)
}

/** Records `name` in `marker`, then runs the real server entry as if started directly. */
const LAUNCHER = `import { appendFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
const [marker, name, entry, ...args] = process.argv.slice(2)
appendFileSync(marker, name + '\\n')
process.argv = [process.argv[0], entry, ...args]
await import(pathToFileURL(entry).href)
`

type Server = StdioServerRow

interface Fixture {
  readonly marker: string
  server(name: string, entry: string, ...args: string[]): Server
}

function fixture(parts: AppRows, label: string): Fixture {
  const dir = join(parts.home.root, `mcp-${label}`)
  mkdirSync(dir, { recursive: true })
  const launcher = join(dir, 'launch.mjs')
  writeFileSync(launcher, LAUNCHER)
  const marker = join(dir, 'started.txt')
  return {
    marker,
    server: (name, entry, ...args) => ({
      name,
      command: join(parts.app.binDir, 'node'),
      args: [launcher, marker, name, entry, ...args],
      env: { MEMORY_FILE_PATH: join(dir, `${name}-memory.jsonl`) },
    }),
  }
}

/** The names the launcher recorded, in start order. Pure apart from the read. */
export function startedServers(marker: string): string[] {
  if (!existsSync(marker)) return []
  return readFileSync(marker, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
}

function legOf(turn: Turn, callId: string, extra: string, works: boolean, failure: string): Observed {
  const result = resultsSeen(turn.requests).get(callId)
  return {
    outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : failure,
    works,
    detail: `${describeTurn(turn)}; call result: ${result === undefined ? 'never seen' : resultOk(result) ? 'ok' : result}; ${extra}`,
  }
}

/** seed 000 through the app's own mcp-client row. */
export async function emptySchemaRow(parts: AppRows): Promise<Row> {
  const run = async (label: string, profile: string, intake: string) => {
    const mcp = fixture(parts, label)
    const fs = mcp.server('fs', serverEntry('server-filesystem-2025'), parts.home.workspace)
    const script = [
      { toolCalls: [{ name: 'mcp__fs__list_directory', arguments: { path: parts.home.workspace } }] },
    ]
    return parts.turn({ profile, patch: insertLayer(intake + mcpClientRow(fs)), script })
  }
  const leg = (turn: Turn): Observed => {
    const fsTools = toolsSent(turn).filter((name) => name.startsWith('mcp__fs__'))
    const works =
      turn.run.exitCode === 0 &&
      rejectionsOf(turn).length === 0 &&
      resultOk(resultsSeen(turn.requests).get('call_0_0'))
    return legOf(
      turn,
      'call_0_0',
      `${fsTools.length} mcp__fs__ tools sent`,
      works,
      fsTools.length === 0 ? 'no-tools' : 'call-fails',
    )
  }
  const stock = await run('fs-stock', parts.stockProfile, '')
  const hardened = await run('fs-hardened', parts.hardenedProfile, parts.ours('@dsh-harden/mcp-client'))
  return {
    id: 'app-mcp-empty-input-schema',
    group: GROUP,
    kind: 'fix',
    proves:
      'server-filesystem@2025.8.21 (tools listed with `inputSchema: {}`) works in the real app through its own dsh-mcp-client row',
    source: 'seed 000; issue 9 (item 5)',
    stock: leg(stock),
    hardened: leg(hardened),
  }
}

const MEMORY = '@modelcontextprotocol/server-memory'
const LAZY_MCP = '@dsh-harden/lazy-mcp'

function fiveServers(mcp: Fixture, workspace: string): Server[] {
  return [
    mcp.server('memory', serverEntry(MEMORY)),
    mcp.server('notes', serverEntry(MEMORY)),
    mcp.server('thinking', serverEntry('@modelcontextprotocol/server-sequential-thinking')),
    mcp.server('everything', serverEntry('@modelcontextprotocol/server-everything'), 'stdio'),
    mcp.server('files', serverEntry('@modelcontextprotocol/server-filesystem'), workspace),
  ]
}

/** seed 004: five servers, one call to one of them. */
export async function gatewayRow(parts: AppRows): Promise<Row> {
  const stockMcp = fixture(parts, 'five-stock')
  const stockTurn = await parts.turn({
    profile: parts.stockProfile,
    patch: insertLayer(fiveServers(stockMcp, parts.home.workspace).map(mcpClientRow).join('')),
    script: [{ toolCalls: [{ name: 'mcp__memory__read_graph', arguments: {} }] }],
  })
  const lazyMcp = fixture(parts, 'five-lazy')
  const servers = fiveServers(lazyMcp, parts.home.workspace).map((server) => ({
    ...server,
    transport: 'stdio',
    lifecycle: 'lazy',
  }))
  const gatewayConfig = { servers, cachePath: join(parts.home.root, 'lazy-mcp-cache.json') }
  // A bundle row (`dsh plugin add` made the package a layer, its row off) is switched on by id; otherwise written.
  const config = JSON.stringify(gatewayConfig)
  const patch = profileBundles(parts.home, parts.hardenedProfile).includes(LAZY_MCP)
    ? `- id: lazy-mcp\n  disabled: false\n  config: ${config}\n`
    : insertLayer(`    - id: lazy-mcp\n      name: '${LAZY_MCP}'\n      config: ${config}\n`)
  const hardenedTurn = await parts.turn({
    profile: parts.hardenedProfile,
    patch,
    script: [
      {
        toolCalls: [{ name: 'mcp_call', arguments: { server: 'memory', tool: 'read_graph', arguments: {} } }],
      },
    ],
  })
  // Stock's eager start is a cost, not a defect: both legs must make the call; the figure is the processes started.
  const leg = (turn: Turn, started: readonly string[]): Observed => {
    const works = turn.run.exitCode === 0 && resultOk(resultsSeen(turn.requests).get('call_0_0'))
    const extra = `server processes started: ${started.length} (${started.join(', ') || 'none'})`
    return legOf(turn, 'call_0_0', extra, works, 'call-fails')
  }
  const stockStarted = startedServers(stockMcp.marker)
  const lazyStarted = startedServers(lazyMcp.marker)
  return {
    id: 'app-lazy-gateway-five-servers',
    group: GROUP,
    kind: 'cost',
    proves:
      'with five MCP servers in a real profile one call works both ways; the gateway starts only the server the call needs',
    source: 'seed 004; issue 9 (item 5)',
    stock: leg(stockTurn, stockStarted),
    hardened: leg(hardenedTurn, lazyStarted),
    costs: [
      {
        what: 'MCP server processes started in a turn that calls one tool of one server',
        unit: 'process',
        units: 'processes',
        stock: stockStarted.length,
        hardened: lazyStarted.length,
        max: 1,
      },
    ],
    checks: [
      {
        what: `stock started all 5 configured servers (${stockStarted.length}), so the figure compares all five`,
        ok: stockStarted.length === 5,
      },
      {
        what: `the server the gateway started is the one the call needs, memory (${lazyStarted.join(', ') || 'none'})`,
        ok: lazyStarted.length === 1 && lazyStarted[0] === 'memory',
      },
    ],
  }
}
