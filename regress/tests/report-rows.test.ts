import { describe, expect, it } from 'vitest'
import { mcpProfileRows } from '../src/mcp-profile-rows.ts'

describe('route-contract rows over the real MCP reference servers', () => {
  it('lists every reference server, and every profile accepts every projected tool', async () => {
    const rows = await mcpProfileRows()
    expect(rows.map((row) => row.id)).toEqual([
      'mcp-schemas-deepseek',
      'mcp-schemas-openai',
      'mcp-schemas-openai-strict',
      'mcp-schemas-codex',
      'mcp-schemas-anthropic',
      'mcp-schemas-gemini',
      'mcp-schemas-dsh-subset',
    ])
    for (const row of rows) {
      expect(row.source).toMatch(/5\/5 MCP servers/)
      expect(row.hardened.outcome, row.hardened.detail).toBe('accepted')
      expect(row.fixed).toBe(true)
    }
    // DSH's own assertSupportedJsonSchema rejects every verbatim schema today (each carries a root $schema).
    const dsh = rows.find((row) => row.id === 'mcp-schemas-dsh-subset')!
    expect(dsh.stock.outcome).toBe('rejected')
    expect(dsh.stock.detail).toMatch(/^(\d+)\/\1 tools/)
  }, 60_000)
})
