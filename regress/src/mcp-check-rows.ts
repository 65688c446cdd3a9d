import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CheckReport, type CheckTarget, type ClientVerdict, checkServer } from '@dsh-harden/mcp-check'
import { startSeed003Http } from '@dsh-harden/mcp-check/fixtures/seed-003-controller'
import { REFERENCE_SERVERS, resolvePackageBin, type ServerDescriptor } from '@dsh-harden/testkit/mcp-servers'
import type { CaseRow, RunResult } from './run-case.ts'

/**
 * `dsh-harden mcp check` as report rows. Seed 003, one row per line of its table: "stock" is what a curl-style check
 * and the official SDK client see, "hardened" is what `mcp check` reports; fixed = the check names the defect.
 * The reference servers: "stock" is the official SDK client's verdict, "hardened" the checker's and hardened DSH's;
 * fixed = conformant and every client takes every tool (server-filesystem@2025.8.21: the 13 untyped schemas are
 * named and hardened DSH registers all 14 tools where stock DSH registers none).
 */

const SEED_003_ROWS = [
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

function clientLine(verdict: ClientVerdict | undefined): string {
  return verdict === undefined ? 'not run' : `${verdict.status}: ${verdict.detail}`
}

async function seed003Rows(): Promise<CaseRow[]> {
  const server = await startSeed003Http()
  let report: CheckReport
  try {
    report = await checkServer(
      { kind: 'http', url: server.url },
      { calls: { mode: 'read-only', named: new Map([['list_apps', undefined]]) } },
    )
  } finally {
    await server.close()
  }
  const sdk = client(report, 'sdk')
  return SEED_003_ROWS.map(([id, row]) => {
    const check = report.checks.find((candidate) => candidate.id === id)!
    const finding = check.findings.find((candidate) => candidate.severity === 'violation')
    const stock: RunResult = {
      outcome: 'accepted',
      detail: `a curl check gets HTTP 200 with JSON (${finding?.evidence?.slice(0, 80) ?? 'answered'}); SDK client ${clientLine(sdk)}`,
    }
    const hardened: RunResult = {
      outcome: check.status === 'fail' ? 'rejected' : 'accepted',
      detail: `mcp check ${check.status.toUpperCase()} ${check.title}: ${finding?.message ?? check.summary}`,
    }
    return {
      id: `mcp-check-seed003-${id}`,
      source: `seed 003 (fixture): ${row}`,
      stock,
      hardened,
      fixed: check.status === 'fail',
    }
  })
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
    return await checkServer(target)
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

function referenceRow(server: ServerDescriptor, report: CheckReport): CaseRow {
  const sdk = client(report, 'sdk')
  const dsh = client(report, 'dsh-hardened')
  const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id)
  const everyClient = report.clients
    .filter((verdict) => verdict.status !== 'unavailable')
    .every((verdict) => verdict.status === 'accepted' && verdict.tools === report.tools.length)
  return {
    id: `mcp-check-${server.id}`,
    source: `${server.packageName}@${server.packageVersion}: ${report.tools.length} tools, ${report.elapsedMs} ms`,
    stock: {
      outcome: sdk?.status === 'accepted' ? 'accepted' : 'rejected',
      detail: `SDK client ${clientLine(sdk)}`,
    },
    hardened: {
      outcome: report.conformant ? 'accepted' : 'rejected',
      detail: `mcp check: ${report.conformant ? 'conformant' : `fails ${failed.join(', ')}`}; hardened DSH ${clientLine(dsh)}`,
    },
    fixed: report.conformant && everyClient,
  }
}

function filesystem2025(): ServerDescriptor {
  const { binPath, version } = resolvePackageBin('server-filesystem-2025')
  const current = REFERENCE_SERVERS.find((server) => server.id === 'filesystem')!
  return { ...current, id: 'filesystem-2025', packageVersion: version, binPath }
}

function untypedRow(server: ServerDescriptor, report: CheckReport): CaseRow {
  const input = report.checks.find((check) => check.id === 'input-schema')!
  const named = new Set(input.findings.filter((f) => f.severity === 'violation').map((f) => f.tool))
  const stock = client(report, 'dsh-stock')
  const hardened = client(report, 'dsh-hardened')
  return {
    id: `mcp-check-${server.id}`,
    source: `@modelcontextprotocol/server-filesystem@${server.packageVersion}: inputSchema without type "object"`,
    stock: {
      outcome: 'rejected',
      detail: `SDK client ${clientLine(client(report, 'sdk'))}; stock DSH ${clientLine(stock)}`,
    },
    hardened: {
      outcome: hardened?.status === 'accepted' ? 'accepted' : 'rejected',
      detail: `mcp check names ${named.size} tools (${[...named].slice(0, 3).join(', ')}, …); hardened DSH ${clientLine(hardened)}`,
    },
    fixed:
      input.status === 'fail' &&
      named.size === 13 &&
      stock?.tools === 0 &&
      hardened?.tools === report.tools.length,
  }
}

export async function mcpCheckRows(): Promise<CaseRow[]> {
  const rows = await seed003Rows()
  // Playwright's server is checked by the profile rows; here the four official reference servers.
  for (const server of REFERENCE_SERVERS.filter((candidate) => candidate.id !== 'playwright'))
    rows.push(referenceRow(server, await checkDescriptor(server)))
  const old = filesystem2025()
  rows.push(untypedRow(old, await checkDescriptor(old)))
  return rows
}
