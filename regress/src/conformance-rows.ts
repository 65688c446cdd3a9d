import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import {
  type ConformanceRun,
  describeConformanceRun,
  findConformanceSuite,
  runConformanceSuite,
} from '@dsh-harden/mcp-check'
import { startEverythingHttp, stopChild } from '@dsh-harden/mcp-client/fixtures'
import {
  SCHEMA_2020_12_TOOL,
  SCHEMA_2020_12_TOOL_NAME,
  startToolsHttp,
} from '@dsh-harden/mcp-repair/fixtures'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { GroupContext } from './group.ts'
import type { Check, Row } from './row.ts'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in this package) as an outside
 * judge of `dsh-harden mcp repair --upstream … --listen …`: its server scenarios run against real server-everything
 * over Streamable HTTP directly (stock leg) and through the facade started by the real CLI (hardened leg). The
 * facade must change nothing the suite can see, except that the suite's own `dns-rebinding-protection` scenario
 * passes both checks (server-everything alone passes one). A second pair of runs serves the suite's
 * `json_schema_2020_12_tool` (a FIXTURE with more 2020-12 keywords) to show the schema arrives unchanged.
 * The lazy gateway serves stdio only, and the suite has no stdio mode, so it is not judged here.
 */
const GROUP = 'mcp-conformance'
const CLI = fileURLToPath(new URL('../../packages/cli/bin/dsh-harden.js', import.meta.url))
const SUITE_TIMEOUT_MS = 240_000
const REBINDING = 'dns-rebinding-protection'
const SCHEMA_SCENARIO = 'json-schema-2020-12'

interface Facade {
  readonly url: string
  stop(): Promise<void>
}

/** `dsh-harden mcp repair --upstream <url> --listen 127.0.0.1:0`, as a user starts it; resolves with its URL. */
function startFacade(upstream: string, context: GroupContext): Promise<Facade> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'mcp', 'repair', '--upstream', upstream, '--listen', '127.0.0.1:0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      void stopChild(child)
      fail(new Error(`mcp repair did not start within 20 s: ${stderr}`))
    }, 20_000)
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
      const match = / at (http:\/\/\S+)/.exec(stderr)
      if (match) {
        clearTimeout(timer)
        ready({
          url: match[1]!,
          stop: async () => {
            await stopChild(child)
            context.log(`mcp repair stderr:\n${stderr}`)
          },
        })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`mcp repair exited (code ${code}) before serving: ${stderr}`))
    })
  })
}

/** Scenario → passed/failed, one line, for the evidence. */
function tally(run: ConformanceRun): string {
  return [...run.scenarios].map(([name, t]) => `${name} ${t.passed}/${t.passed + t.failed}`).join(', ')
}

/** Scenarios whose pass counts differ between the runs, ignoring `except`. */
function differences(a: ConformanceRun, b: ConformanceRun, except: string): string[] {
  const names = new Set([...a.scenarios.keys(), ...b.scenarios.keys()])
  names.delete(except)
  return [...names].filter((name) => a.scenarios.get(name)?.passed !== b.scenarios.get(name)?.passed)
}

async function listedSchema(url: string): Promise<Record<string, unknown> | undefined> {
  const client = new Client({ name: 'regress-conformance', version: '1' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 15_000 })
    const { tools } = await client.listTools(undefined, { timeout: 15_000 })
    return tools.find((tool) => tool.name === SCHEMA_2020_12_TOOL_NAME)?.inputSchema as Record<
      string,
      unknown
    >
  } finally {
    await client.close()
  }
}

/** The 2020-12 keywords the fixture's schema holds, each present with the value the server sent. */
function keywordChecks(schema: Record<string, unknown> | undefined): Check[] {
  const sent = SCHEMA_2020_12_TOOL.inputSchema as Record<string, unknown>
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>
  const defs = (schema?.$defs ?? {}) as Record<string, Record<string, unknown>>
  const same = (a: unknown, b: unknown) => sorted(a) === sorted(b)
  return [
    { what: '$schema unchanged', ok: same(schema?.$schema, sent.$schema) },
    { what: '$defs unchanged', ok: same(schema?.$defs, sent.$defs) },
    { what: 'additionalProperties: false unchanged', ok: schema?.additionalProperties === false },
    { what: 'allOf unchanged', ok: same(props.size, (sent.properties as Record<string, unknown>).size) },
    {
      what: 'anyOf unchanged',
      ok: same(props.contact, (sent.properties as Record<string, unknown>).contact),
    },
    {
      what: 'if/then/else unchanged',
      ok: same([schema?.if, schema?.then, schema?.else], [sent.if, sent.then, sent.else]),
    },
    { what: '$anchor unchanged', ok: defs.address?.$anchor === 'address' },
    {
      what: 'the whole inputSchema unchanged (as the server sent it, keys in any order)',
      ok: same(schema, sent),
    },
  ]
}

/** JSON with object keys sorted: the SDK client's parse may reorder keys, which changes no meaning. */
function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  )
}

export async function run(context: GroupContext): Promise<readonly Row[]> {
  const suite = findConformanceSuite([fileURLToPath(new URL('..', import.meta.url))])
  if (suite === undefined) {
    context.note('mcp-conformance: @modelcontextprotocol/conformance is not installed; run pnpm install')
    return []
  }
  const everything = await startEverythingHttp()
  let direct: ConformanceRun
  let through: ConformanceRun
  try {
    direct = await runConformanceSuite(everything.url, { suite, timeoutMs: SUITE_TIMEOUT_MS })
    const facade = await startFacade(everything.url, context)
    try {
      through = await runConformanceSuite(facade.url, { suite, timeoutMs: SUITE_TIMEOUT_MS })
    } finally {
      await facade.stop()
    }
  } finally {
    await everything.stop()
  }
  context.note(
    `mcp-conformance: direct run ${Math.round(direct.elapsedMs / 1000)} s, through mcp repair ${Math.round(through.elapsedMs / 1000)} s`,
  )

  const schemaServer = await startToolsHttp([SCHEMA_2020_12_TOOL])
  let schemaDirect: ConformanceRun
  let schemaThrough: ConformanceRun
  let schemaSeen: Record<string, unknown> | undefined
  let schemaSeenDirect: Record<string, unknown> | undefined
  try {
    schemaSeenDirect = await listedSchema(schemaServer.url)
    schemaDirect = await runConformanceSuite(schemaServer.url, {
      suite,
      scenario: SCHEMA_SCENARIO,
      timeoutMs: 60_000,
    })
    const facade = await startFacade(schemaServer.url, context)
    try {
      schemaThrough = await runConformanceSuite(facade.url, {
        suite,
        scenario: SCHEMA_SCENARIO,
        timeoutMs: 60_000,
      })
      schemaSeen = await listedSchema(facade.url)
    } finally {
      await facade.stop()
    }
  } finally {
    await schemaServer.stop()
  }

  const rebinding = through.scenarios.get(REBINDING)
  const directRebinding = direct.scenarios.get(REBINDING)
  const changed = differences(direct, through, REBINDING)
  const schemaAll = (run: ConformanceRun) => run.failed === 0 && run.passed > 0
  return [
    {
      id: 'conformance-suite-through-repair-facade',
      group: GROUP,
      kind: 'guard',
      proves:
        'the official MCP conformance suite sees the same server through `mcp repair --upstream` as directly, and its DNS-rebinding scenario passes in full through the facade',
      source: 'issue 11 (outside judge); @modelcontextprotocol/conformance server scenarios',
      stock: {
        outcome: directRebinding?.failed ? 'rebinding-accepted' : 'ran',
        works: direct.checks.length > 0 && !direct.timedOut,
        detail: `direct to server-everything: ${describeConformanceRun(direct)}; ${tally(direct)}`,
      },
      hardened: {
        outcome: changed.length === 0 && rebinding?.failed === 0 ? 'same-and-rebinding-refused' : 'differs',
        works:
          through.checks.length > 0 && !through.timedOut && changed.length === 0 && rebinding?.failed === 0,
        detail: `through dsh-harden mcp repair: ${describeConformanceRun(through)}; ${tally(through)}${changed.length > 0 ? `; differs from direct in: ${changed.join(', ')}` : ''}`,
      },
      checks: [
        {
          what: 'every scenario but dns-rebinding-protection passes the same number of checks',
          ok: changed.length === 0,
        },
        {
          what: `dns-rebinding-protection passes both checks through the facade (direct: ${directRebinding?.passed ?? 0} of ${(directRebinding?.passed ?? 0) + (directRebinding?.failed ?? 0)})`,
          ok: rebinding?.passed === 2 && rebinding.failed === 0,
        },
        {
          what: 'passed through = passed direct + the rebinding checks the facade adds',
          ok: through.passed === direct.passed + (directRebinding?.failed ?? 0),
        },
      ],
    },
    {
      id: 'conformance-json-schema-2020-12-through-repair-facade',
      group: GROUP,
      kind: 'guard',
      proves:
        'a JSON Schema 2020-12 inputSchema ($schema, $defs, additionalProperties:false, allOf/anyOf, if/then/else, $anchor) arrives unchanged through `mcp repair`',
      source:
        'issue 11; conformance scenario json-schema-2020-12 (SEP-1613), FIXTURE server with the scenario tool',
      stock: {
        outcome: schemaAll(schemaDirect) ? 'preserved' : 'checks-failed',
        works: schemaAll(schemaDirect),
        detail: `direct: ${describeConformanceRun(schemaDirect)}`,
      },
      hardened: {
        outcome: schemaAll(schemaThrough) ? 'preserved' : 'checks-failed',
        works: schemaAll(schemaThrough),
        detail: `through dsh-harden mcp repair: ${describeConformanceRun(schemaThrough)}; listed inputSchema ${JSON.stringify(schemaSeen)}`,
      },
      checks: [
        ...keywordChecks(schemaSeen),
        {
          what: 'the same client lists byte-identical schemas direct and through the facade',
          ok: schemaSeen !== undefined && JSON.stringify(schemaSeen) === JSON.stringify(schemaSeenDirect),
        },
      ],
    },
  ]
}
