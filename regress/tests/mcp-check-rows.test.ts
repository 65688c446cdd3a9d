import { describe, expect, it } from 'vitest'
import { mcpCheckRows } from '../src/mcp-check-rows.ts'

describe('mcp check rows', () => {
  it('detects every seed-003 row, finds the reference servers conformant, and names the untyped 2025 schemas', async () => {
    const rows = await mcpCheckRows()
    expect(rows.map((row) => row.id)).toEqual([
      'mcp-check-seed003-initialize',
      'mcp-check-seed003-jsonrpc-envelope',
      'mcp-check-seed003-error-codes',
      'mcp-check-seed003-input-schema',
      'mcp-check-seed003-call-content',
      'mcp-check-seed003-protocol-version',
      'mcp-check-everything',
      'mcp-check-filesystem',
      'mcp-check-memory',
      'mcp-check-sequential-thinking',
      'mcp-check-filesystem-2025',
    ])
    for (const row of rows) expect(row.fixed, `${row.id}: ${row.hardened.detail}`).toBe(true)
    const untyped = rows.at(-1)!
    expect(untyped.stock.detail).toMatch(/stock DSH rejected: 0 tools registered/)
    expect(untyped.hardened.detail).toMatch(/hardened DSH accepted: 14 tools registered/)
  }, 120_000)
})
