import { describe, expect, it } from 'vitest'
import { FAULTS, faultRow } from '../src/mcp-repair-rows.ts'
import { verdictOf } from '../src/row.ts'

describe('mcp-repair-fault-stdout-log-lines (a server that logs each request to stdout before answering)', () => {
  it('holds: straight to the SDK client and through the proxy, each request gets its own answer, once', async () => {
    const row = await faultRow(FAULTS.find((fault) => fault.id === 'stdout-log-lines')!)
    expect(row.id).toBe('mcp-repair-fault-stdout-log-lines')
    const seen =
      'initialize answered by "stdout-log-fixture"; listTools() returned ["echo"]; callTool(echo) returned "its own answer"; 0 second answers to a request'
    expect(row.stock).toEqual({
      outcome: 'handled',
      works: true,
      detail: `SDK client direct: ${FAULTS.at(-1)!.label}: ${seen}`,
    })
    expect(row.hardened.detail).toBe(`SDK client via dsh-harden mcp repair: ${FAULTS.at(-1)!.label}: ${seen}`)
    expect(verdictOf(row)).toBe('holds')
  }, 600_000)
})
