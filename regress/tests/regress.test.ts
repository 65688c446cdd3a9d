import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REGRESSION_CASES } from '../src/cases.ts'
import { type DeepSeekEndpoint, startDeepSeekEndpoint } from '../src/deepseek-endpoint.ts'
import { observeRegistration, registrationRow } from '../src/registration-rows.ts'
import { verdictOf } from '../src/row.ts'

let endpoint: DeepSeekEndpoint

beforeAll(async () => {
  endpoint = await startDeepSeekEndpoint()
})
afterAll(() => endpoint.close())

describe('registration rows against the real @deepseek-ai packages', () => {
  for (const testCase of REGRESSION_CASES.filter((c) => c.kind === 'broken')) {
    it(`${testCase.id}: stock DSH was seen failing every turn; hardened works and names tool and plugin`, async () => {
      const stock = await observeRegistration(testCase, endpoint, false)
      const hardened = await observeRegistration(testCase, endpoint, true)
      const row = registrationRow(testCase, stock, hardened)
      expect(row.kind).toBe('fix')
      expect(row.stock).toMatchObject({ outcome: 'every-turn-fails', works: false })
      expect(row.hardened.works, row.hardened.detail).toBe(true)
      expect(row.hardened.detail).toContain('2/2 turns ok')
      expect(
        row.checks?.every((check) => check.ok),
        JSON.stringify(row.checks),
      ).toBe(true)
      expect(verdictOf(row)).toBe('fixed')
    })
  }

  it('the same broken case with the overlay left out is not fixed (the verdict reads the legs)', async () => {
    const testCase = REGRESSION_CASES[0]!
    const stock = await observeRegistration(testCase, endpoint, false)
    const again = await observeRegistration(testCase, endpoint, false)
    expect(verdictOf(registrationRow(testCase, stock, again))).toBe('not-fixed')
  })

  it('the valid tool is a guard: it works both ways and reaches the model byte for byte as declared', async () => {
    const valid = REGRESSION_CASES.find((c) => c.kind === 'valid')!
    const stock = await observeRegistration(valid, endpoint, false)
    const hardened = await observeRegistration(valid, endpoint, true)
    const row = registrationRow(valid, stock, hardened)
    expect(row.kind).toBe('guard')
    for (const json of [...stock.wireParameters, ...hardened.wireParameters])
      expect(json).toBe(JSON.stringify(valid.parameters))
    expect(verdictOf(row)).toBe('holds')
  })
})
