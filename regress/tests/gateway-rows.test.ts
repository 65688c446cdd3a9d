import { childPids, newChildren } from '@dsh-harden/lazy-mcp/testing'
import { describe, expect, it } from 'vitest'
import { run } from '../src/gateway-rows.ts'
import { verdictOf } from '../src/row.ts'
import { testContext } from './context.ts'

describe('gateway row (seed 004: the lazy MCP gateway)', () => {
  it('a cost row: both work; stock DSH starts all 5 servers at activation, the gateway none, and sends a fraction of the bytes', async () => {
    const before = childPids()
    expect(before).toBeInstanceOf(Set)
    const rows = await run(testContext())
    expect(rows.map((row) => row.id)).toEqual(['lazy-mcp-gateway-5-servers'])
    const [row] = rows
    expect(row, JSON.stringify(row)).toMatchObject({
      kind: 'cost',
      stock: { outcome: 'works-servers-started', works: true },
      hardened: { outcome: 'works-none-started', works: true },
    })
    expect(verdictOf(row!)).toBe('within')
    expect(row!.costs?.map((cost) => [cost.what, cost.stock, cost.hardened])).toEqual([
      ['MCP server processes started during activation', 5, 0],
      ['bytes of tool schemas in the model request', expect.any(Number), expect.any(Number)],
    ])
    expect(row!.stock.detail).toMatch(/: 62 tools registered, 5 servers started at activation/)
    expect(row!.hardened.detail).toMatch(/: 5 tools registered, 0 servers started at activation/)
    const bytes = (detail: string) => Number(/request ([\d,]+) bytes/.exec(detail)![1]!.replaceAll(',', ''))
    expect(bytes(row!.hardened.detail) * 4).toBeLessThanOrEqual(bytes(row!.stock.detail))
    // Every server the stock side started is gone again.
    expect(newChildren(before)).toEqual([])
  }, 600_000)
})
