import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CheckReport, type CheckTarget, type ClientVerdict, checkServer } from '@dsh-harden/mcp-check'
import {
  listToolsRaw,
  REFERENCE_SERVERS,
  resolvePackageBin,
  type ServerDescriptor,
} from '@dsh-harden/testkit/mcp-servers'
import { startSeed003Http } from '@dsh-harden/testkit/seed-003-controller'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Check, Observed, Row } from './row.ts'

/**
 * `dsh-harden mcp check` as report rows. The real clients `mcp check` runs are the outside judges: the official SDK
 * `Client` and DSH itself (stock `dsh-mcp-client`, and hardened). Seed 003 is a `detect` row: stock is what the SDK
 * client and stock DSH were observed to do with that server, hardened is the checker naming each defect. The
 * reference servers are `guard` rows: the SDK client and stock DSH take every tool, hardened DSH does too, and the
 * checker finds nothing. server-filesystem@2025.8.21 is a `detect` row: the checker names exactly the tools whose
 * listed `inputSchema` has no `type: "object"` (read from the server's raw `tools/list`).
 */
const GROUP = 'mcp-check'
/**
 * The checker's bounds are sized for a quick interactive check; here the machine is shared and every client starts
 * its own server at once, so a slow start must not read as a client's refusal. The report is about outcomes.
 */
const PATIENT = { initializeTimeoutMs: 30_000, clientTimeoutMs: 30_000, timeoutMs: 15_000 }

const SEED_003_DEFECTS = [
  ['initialize', 'handles only tools/list and tools/call, not initialize'],
  ['jsonrpc-envelope', 'answers {"ok":true,"data"} instead of {"jsonrpc":"2.0","id","result"}'],
  ['error-codes', 'errors {"ok":false,"error":{"code":"<string>"}} instead of an integer code'],
  ['input-schema', 'tools/list entries are {name, description}, no inputSchema'],
  ['call-content', 'tools/call returns the business result in data, not content'],
  ['protocol-version', 'no protocolVersion negotiation'],
] as const

function client(report: CheckReport, id: string): ClientVerdict | undefined {
  return report.clients.find((verdict) => verdict.client === id)
}

function clientLine(name: string, verdict: ClientVerdict | undefined): string {
  return verdict === undefined ? `${name}: not run` : `${name} ${verdict.status}: ${verdict.detail}`
}

/** A client took the whole list the server offers (`offered` from the checker's raw probe). */
const tookAll = (verdict: ClientVerdict | undefined, offered: number) =>
  verdict?.status === 'accepted' && verdict.tools === offered && offered > 0

function clientsLeg(report: CheckReport, ids: readonly [string, string][]): Observed {
  const verdicts = ids.map(([id]) => client(report, id))
  const works = verdicts.every((verdict) => tookAll(verdict, report.tools.length))
  return {
    outcome: works
      ? 'takes-every-tool'
      : verdicts.some((v) => v?.status === 'failed')
        ? 'fails'
        : 'refuses-tools',
    works,
    detail: [
      `the server offers ${count(report.tools.length, 'tool')}`,
      ...ids.map(([, name], i) => clientLine(name, verdicts[i])),
    ].join('\n'),
  }
}

async function seed003Row(): Promise<Row> {
  const server = await startSeed003Http()
  let report: CheckReport
  try {
    report = await checkServer(
      { kind: 'http', url: server.url },
      { ...PATIENT, calls: { mode: 'read-only', named: new Map([['list_apps', undefined]]) } },
    )
  } finally {
    await server.close()
  }
  const checks: Check[] = SEED_003_DEFECTS.map(([id, defect]) => {
    const check = report.checks.find((candidate) => candidate.id === id)
    const finding = check?.findings.find((candidate) => candidate.severity === 'violation')
    return {
      what: `names "${id}" (${defect}): ${check === undefined ? 'no such check' : `${check.status.toUpperCase()} ${finding?.message ?? check.summary}`}`,
      ok: check?.status === 'fail',
    }
  })
  const named = checks.filter((check) => check.ok).length
  return {
    id: 'mcp-check-seed003',
    group: GROUP,
    kind: 'detect',
    proves:
      'mcp check names each of the six protocol defects of the seed-003 server that real clients fail on',
    source: 'seed 003 (FIXTURE: packages/testing/testkit/src/seed-003-controller.ts)',
    stock: clientsLeg(report, [
      ['sdk', 'SDK client'],
      ['dsh-stock', 'stock DSH'],
    ]),
    hardened: {
      outcome: named === checks.length ? 'names-every-defect' : 'misses-defects',
      works: !report.conformant && named === checks.length,
      detail: `mcp check: ${report.conformant ? 'conformant' : 'not conformant'}; names ${named} of ${count(checks.length, 'defect')}`,
    },
    checks,
  }
}

async function checkDescriptor(server: ServerDescriptor): Promise<CheckReport> {
  const workDir = await mkdtemp(join(tmpdir(), `dsh-harden-check-${server.id}-`))
  try {
    const launch = await server.launch(workDir)
    const target: CheckTarget = {
      kind: 'stdio',
      command: process.execPath,
      args: [server.binPath, ...launch.args],
      ...(launch.env === undefined ? {} : { env: { ...launch.env } }),
      cwd: workDir,
    }
    return await checkServer(target, PATIENT)
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

function referenceRow(server: ServerDescriptor, report: CheckReport): Row {
  const failed = report.checks.filter((check) => check.status === 'fail')
  return {
    id: `mcp-check-${server.id}`,
    group: GROUP,
    kind: 'guard',
    proves: `a healthy server (${server.packageName}) stays usable: every client takes every tool and mcp check finds nothing`,
    source: `${server.packageName}@${server.packageVersion}`,
    stock: clientsLeg(report, [
      ['sdk', 'SDK client'],
      ['dsh-stock', 'stock DSH'],
    ]),
    hardened: clientsLeg(report, [['dsh-hardened', 'hardened DSH']]),
    checks: [
      {
        what: `mcp check reports it conformant${failed.length === 0 ? '' : ` (it fails ${failed.map((check) => `${check.id}: ${check.summary}`).join('; ')})`}`,
        ok: report.conformant,
      },
    ],
  }
}

function filesystem2025(): ServerDescriptor {
  const { binPath, version } = resolvePackageBin('server-filesystem-2025')
  const current = REFERENCE_SERVERS.find((server) => server.id === 'filesystem')!
  return { ...current, id: 'filesystem-2025', packageVersion: version, binPath }
}

function untypedRow(server: ServerDescriptor, report: CheckReport, untyped: readonly string[]): Row {
  const input = report.checks.find((check) => check.id === 'input-schema')
  const named = new Set(
    (input?.findings ?? [])
      .filter((f) => f.severity === 'violation')
      .flatMap((f) => (f.tool === undefined ? [] : [f.tool])),
  )
  const exactly = named.size === untyped.length && untyped.every((tool) => named.has(tool))
  return {
    id: `mcp-check-${server.id}`,
    group: GROUP,
    kind: 'detect',
    proves:
      'mcp check names exactly the tools whose listed inputSchema has no type "object", which real clients refuse',
    source: `@modelcontextprotocol/server-filesystem@${server.packageVersion}`,
    stock: clientsLeg(report, [
      ['sdk', 'SDK client'],
      ['dsh-stock', 'stock DSH'],
    ]),
    hardened: {
      outcome: exactly ? 'names-exactly-those' : 'names-others',
      works: input?.status === 'fail' && untyped.length > 0 && exactly,
      detail: `the raw tools/list has ${count(untyped.length, 'tool')} without type "object": ${untyped.join(', ')}\nmcp check names ${count(named.size, 'tool')}: ${[...named].join(', ')}`,
    },
    checks: [
      {
        what: `hardened DSH registers every tool (${clientLine('hardened DSH', client(report, 'dsh-hardened'))})`,
        ok: tookAll(client(report, 'dsh-hardened'), report.tools.length),
      },
    ],
  }
}

export async function run(_context: GroupContext): Promise<Row[]> {
  const rows = [await seed003Row()]
  // Playwright's server is in the mcp-schemas and gateway groups; here the four official reference servers.
  for (const server of REFERENCE_SERVERS.filter((candidate) => candidate.id !== 'playwright'))
    rows.push(referenceRow(server, await checkDescriptor(server)))
  const old = filesystem2025()
  const raw = await listToolsRaw(old)
  const untyped = raw.rawTools
    .filter((tool) => (tool.inputSchema as { type?: unknown } | undefined)?.type !== 'object')
    .map((tool) => String(tool.name))
  rows.push(untypedRow(old, await checkDescriptor(old), untyped))
  return rows
}
