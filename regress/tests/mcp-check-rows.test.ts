import { describe, expect, it } from 'vitest'
import { run } from '../src/mcp-check-rows.ts'
import { rowPasses, verdictOf } from '../src/row.ts'
import { testContext } from './context.ts'

describe('mcp check rows', () => {
  it('detects seed 003 (real clients fail), holds on the reference servers, and names the untyped 2025 schemas', async () => {
    const rows = await run(testContext())
    expect(rows.map((row) => [row.id, row.kind])).toEqual([
      ['mcp-check-seed003', 'detect'],
      ['mcp-check-everything', 'guard'],
      ['mcp-check-filesystem', 'guard'],
      ['mcp-check-memory', 'guard'],
      ['mcp-check-sequential-thinking', 'guard'],
      ['mcp-check-filesystem-2025', 'detect'],
    ])
    for (const row of rows) expect(rowPasses(row), `${row.id}: ${JSON.stringify(row)}`).toBe(true)
    const seed = rows[0]!
    expect(seed.stock.detail).toMatch(/SDK client failed/)
    expect(seed.checks).toHaveLength(6)
    const untyped = rows.at(-1)!
    expect(untyped.stock.detail).toMatch(/stock DSH rejected: 0 tools registered/)
    expect(untyped.hardened.detail).toMatch(/mcp check names 13 tools/)
    expect(verdictOf(untyped)).toBe('detected')
  }, 600_000)
})
