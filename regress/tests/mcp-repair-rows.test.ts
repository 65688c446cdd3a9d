import { describe, expect, it } from 'vitest'
import { mcpRepairRows } from '../src/mcp-repair-rows.ts'

describe('mcpRepairRows (seed 000: tolerant intake and the repair proxy)', () => {
  it('reproduces each failure on stock DSH / the direct connection and shows it fixed', async () => {
    const rows = await mcpRepairRows()
    expect(rows.map((row) => row.id)).toEqual([
      'mcp-intake-seed000-fixture',
      'mcp-intake-server-filesystem-2025.8.21',
      'mcp-repair-stdio-seed000-fixture',
      'mcp-repair-stdio-server-filesystem-2025.8.21',
      'mcp-repair-http-seed000-fixture',
      'mcp-repair-faults',
    ])
    for (const row of rows) expect(row, JSON.stringify(row)).toMatchObject({ fixed: true })
    expect(rows[0]?.stock.detail).toBe('DSH registers 0/76 tools')
    expect(rows[0]?.hardened.detail).toBe('DSH + TolerantMcpClient registers 76/76 tools')
  }, 180_000)
})
