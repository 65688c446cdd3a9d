import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type CheckReport, checkServer } from '../src/index.ts'
import { nodeTarget, processesLeft } from './servers.ts'

const DEFECTS = fileURLToPath(new URL('./fixtures/defects-server.mjs', import.meta.url))
/** Bounds for waits that are meant to run out (a silent server, clients that drop every reply): short. */
const fast = { claude: false as const, timeoutMs: 1000, initializeTimeoutMs: 1500, clientTimeoutMs: 1500 }
/** Bounds for waits that are meant to be answered: far above any load, so a busy machine changes no verdict. */
const patient = {
  claude: false as const,
  timeoutMs: 15_000,
  initializeTimeoutMs: 15_000,
  clientTimeoutMs: 15_000,
}

function status(report: CheckReport, id: string): string | undefined {
  return report.checks.find((check) => check.id === id)?.status
}

describe('time bounds and single defects', () => {
  it('a server that never answers is a finding, within the bounds, and is stopped', async () => {
    const report = await checkServer(nodeTarget(DEFECTS, ['silent']), fast)
    expect(status(report, 'initialize')).toBe('fail')
    expect(report.checks[0]?.findings[0]?.message).toMatch(/no reply to initialize within 1500 ms/)
    expect(report.clients.every((client) => client.status === 'failed')).toBe(true)
    expect(await processesLeft(DEFECTS)).toEqual([])
  }, 600_000)

  it('replies without "jsonrpc" are heard and reported, while strict clients time out on them', async () => {
    // The probe's waits are answered; only the strict clients' bound is meant to run out.
    const report = await checkServer(nodeTarget(DEFECTS, ['no-jsonrpc']), {
      ...patient,
      clientTimeoutMs: 1500,
    })
    expect(status(report, 'jsonrpc-envelope')).toBe('fail')
    expect(status(report, 'initialize')).toBe('pass')
    expect(status(report, 'input-schema')).toBe('pass')
    expect(report.checks.find((c) => c.id === 'jsonrpc-envelope')?.findings[0]?.message).toMatch(
      /no "jsonrpc":"2.0"/,
    )
    expect(report.clients.find((client) => client.client === 'sdk')?.status).toBe('failed')
  }, 600_000)

  it('a tools/call result without content fails call-content though every client accepts the list', async () => {
    const report = await checkServer(nodeTarget(DEFECTS, ['raw-result']), patient)
    expect(status(report, 'call-content')).toBe('fail')
    expect(report.conformant).toBe(false)
    expect(report.calls.map((call) => call.tool)).toEqual(['dsh-harden-check-no-such-tool', 'lookup'])
    expect(
      report.clients.filter((c) => c.client !== 'dsh-intake').every((c) => c.status === 'accepted'),
    ).toBe(true)
  }, 600_000)

  it('an unsupported protocolVersion fails protocol-version and the SDK client refuses to connect', async () => {
    const report = await checkServer(nodeTarget(DEFECTS, ['bad-version']), patient)
    expect(status(report, 'protocol-version')).toBe('fail')
    expect(report.clients.find((client) => client.client === 'sdk')?.detail).toMatch(
      /protocol version is not supported/,
    )
  }, 600_000)

  it('--no-call calls no listed tool; only the unknown-tool probe runs', async () => {
    const report = await checkServer(nodeTarget(DEFECTS, ['raw-result']), {
      ...patient,
      clients: false,
      calls: { mode: 'none', named: new Map() },
    })
    expect(report.calls.map((call) => call.tool)).toEqual(['dsh-harden-check-no-such-tool'])
    expect(report.clients).toEqual([])
    expect(report.conformant).toBe(true)
  }, 600_000)
})
