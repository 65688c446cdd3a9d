import { describe, expect, it } from 'vitest'
import { message, run } from '../src/mcp-repair-rows.ts'
import { verdictOf } from '../src/row.ts'
import { testContext } from './context.ts'

describe('mcp-intake rows (seed 000: tolerant intake, the repair proxy, its faults)', () => {
  it('observes each failure on stock DSH / the direct connection, and each fault both ways', async () => {
    const rows = await run(testContext())
    expect(rows.map((row) => [row.id, verdictOf(row)])).toEqual([
      ['mcp-intake-seed000-fixture', 'fixed'],
      ['mcp-intake-server-filesystem-2025.8.21', 'fixed'],
      ['mcp-repair-stdio-seed000-fixture', 'fixed'],
      ['mcp-repair-stdio-server-filesystem-2025.8.21', 'fixed'],
      ['mcp-repair-http-seed000-fixture', 'fixed'],
      ['mcp-repair-fault-exit-mid-call', 'holds'],
      ['mcp-repair-fault-malformed-json', 'fixed'],
      ['mcp-repair-fault-10mb-message', 'holds'],
      ['mcp-repair-fault-1000-concurrent-calls', 'holds'],
      ['mcp-repair-fault-list-with-empty-schema', 'fixed'],
      ['mcp-repair-fault-stdout-log-lines', 'holds'],
    ])
    expect(rows[0]?.stock.detail).toBe('DSH (dsh-mcp-client) registers 0 of the 76 tools the server offers')
    expect(rows[0]?.hardened.detail).toBe(
      'DSH with TolerantMcpClient registers 76 of the 76 tools the server offers',
    )
    expect(rows[6]?.stock.detail).toMatch(/Request timed out/)
  }, 600_000)
})

describe('message', () => {
  it('turns the SDK’s JSON list of schema issues into one line per issue, keeping every issue', () => {
    const issues = [1, 2].map((i) => ({
      path: ['tools', i, 'inputSchema', 'type'],
      message: 'Invalid input',
    }))
    expect(message(new Error(JSON.stringify(issues, null, 2)))).toBe(
      '2 schema issues:\ntools[1].inputSchema.type: Invalid input\ntools[2].inputSchema.type: Invalid input',
    )
    expect(message(new Error('plain [text'))).toBe('plain [text')
  })
})
