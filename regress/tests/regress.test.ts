import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REGRESSION_CASES } from '../src/cases.ts'
import { type DeepSeekEndpoint, startDeepSeekEndpoint } from '../src/deepseek-endpoint.ts'
import { runCase } from '../src/run-case.ts'

let endpoint: DeepSeekEndpoint

beforeAll(async () => {
  endpoint = await startDeepSeekEndpoint()
})
afterAll(() => endpoint.close())

describe('regression cases against the real @deepseek-ai packages', () => {
  for (const testCase of REGRESSION_CASES.filter((c) => c.kind === 'broken')) {
    it(`${testCase.id}: stock DSH breaks every turn, the overlay fails the plugin at load and the session works`, async () => {
      const row = await runCase(testCase, endpoint)
      expect(row.stock.outcome).toBe('every-turn-fails')
      expect(row.hardened.outcome).toBe('load-error')
      expect(row.hardened.detail).toContain('2/2 turns ok')
      expect(row.hardened.detail).toContain(`"${testCase.tool}"`)
      expect(row.hardened.detail).toContain(`"${testCase.plugin}"`)
      expect(row.fixed).toBe(true)
    })
  }

  it('a valid tool works both ways and reaches the model byte for byte as declared', async () => {
    const valid = REGRESSION_CASES.find((c) => c.kind === 'valid')!
    const before = endpoint.requests.length
    const row = await runCase(valid, endpoint)
    expect(row.stock.outcome).toBe('works')
    expect(row.hardened.outcome).toBe('works')
    const sent = endpoint.requests.slice(before).flatMap((r) => r.tools.filter((t) => t.name === valid.tool))
    expect(sent.length).toBeGreaterThan(0)
    for (const tool of sent) expect(tool.parametersJson).toBe(JSON.stringify(valid.parameters))
    expect(row.fixed).toBe(true)
  })
})
