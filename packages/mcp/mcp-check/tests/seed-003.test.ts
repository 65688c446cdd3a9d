import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSeed003Http } from '../../../testing/testkit/src/seed-003-controller.ts'
import { type CheckReport, checkServer } from '../src/index.ts'
import { FIXTURE, nodeTarget, processesLeft } from './servers.ts'

/** Seed 003's table, row by row: the check that must fail for each. */
const SEED_ROWS = [
  ['only tools/list and tools/call; no initialize', 'initialize'],
  ['{"ok":true,"data"} instead of {"jsonrpc":"2.0","id","result"}', 'jsonrpc-envelope'],
  ['string error codes', 'error-codes'],
  ['tools/list entries without inputSchema', 'input-schema'],
  ['tools/call result in data, not content', 'call-content'],
  ['no protocolVersion negotiation', 'protocol-version'],
] as const

function check(report: CheckReport, id: string) {
  const found = report.checks.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(`no check ${id}`)
  return found
}

function expectEverySeedRow(report: CheckReport): void {
  for (const [row, id] of SEED_ROWS) expect(check(report, id).status, `${row} (${id})`).toBe('fail')
  expect(report.conformant).toBe(false)
  expect(report.reachable).toBe(true)
  expect(check(report, 'error-codes').findings[0]?.message).toMatch(/"unknown_method" is not an integer/)
  expect(check(report, 'input-schema').findings.map((finding) => finding.tool)).toEqual([
    'list_apps',
    'deploy_prepare',
    'logs',
    'env',
    'destroy',
  ])
  expect(check(report, 'call-content').findings[0]?.message).toMatch(/list_apps: the result has no "content"/)
  // Beyond the table: ping and the unknown-method probe fail the same way.
  expect(check(report, 'ping').status).toBe('fail')
  expect(check(report, 'unknown-method').status).toBe('fail')
  expect(check(report, 'version-negotiation').status).toBe('fail')
}

const calls = { mode: 'read-only' as const, named: new Map([['list_apps', undefined]]) }

describe('mcp check against the seed-003 controller (fixture)', () => {
  let http: Awaited<ReturnType<typeof startSeed003Http>>
  beforeAll(async () => {
    http = await startSeed003Http()
  })
  afterAll(async () => {
    await http.close()
  })

  it('over HTTP, reports every row of the seed table, and no real client gets a tool', async () => {
    const report = await checkServer({ kind: 'http', url: http.url }, { calls, claude: false })
    expectEverySeedRow(report)
    const clients = Object.fromEntries(report.clients.map((client) => [client.client, client]))
    expect(clients.sdk?.status).toBe('failed')
    expect(clients['dsh-stock']?.tools).toBe(0)
    expect(clients['dsh-hardened']?.tools).toBe(0)
    // What intake would make of the list, had the envelope been right: five tools with an empty object schema.
    expect(clients['dsh-intake']).toMatchObject({ status: 'accepted', tools: 5 })
    for (const profile of report.profiles) {
      expect(profile.verbatim).toHaveLength(5)
      expect(profile.hardened).toHaveLength(0)
    }
  }, 600_000)

  it('over stdio, reports every row too, each client waiting exactly its bound, and leaves no process behind', async () => {
    const report = await checkServer(nodeTarget(FIXTURE, ['--stdio']), {
      calls,
      claude: false,
      clientTimeoutMs: 2000,
    })
    expectEverySeedRow(report)
    expect(
      check(report, 'jsonrpc-envelope').findings.some((f) => /answered a notification/.test(f.message)),
    ).toBe(true)
    // The SDK client drops every reply (no "jsonrpc"), so each real client waits for the bound it was given, not
    // the SDK's 60 s default: the report names the bound that ran out (no clock is read by this test).
    const detail = (name: string) => report.clients.find((client) => client.client === name)?.detail
    expect(detail('sdk')).toMatch(/Request timed out after 2000 ms$/)
    expect(detail('dsh-stock')).toMatch(/still connecting after 2000 ms/)
    expect(detail('dsh-hardened')).toMatch(/still connecting after 2000 ms/)
    expect(await processesLeft(FIXTURE)).toEqual([])
  }, 600_000)
})
