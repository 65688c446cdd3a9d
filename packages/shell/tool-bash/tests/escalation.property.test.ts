import { WIDER_MODES as DSH_WIDER_MODES, ESCALATION_TARGETS } from '@deepseek-ai/dsh-sandbox'
import { SANDBOX_MODES, WIDER_MODES } from '@dsh-harden/escalation'
import {
  APPROVALS,
  checkEveryRequest,
  checkRandomValues,
  type EscalationMatrix,
} from '@dsh-harden/escalation/testing'
import { describe, expect, it } from 'vitest'
import { composeBash } from './compose.ts'

const BASH: EscalationMatrix = {
  base: { command: 'echo hi > f.txt', description: 'Write f.txt' },
  justifications: [undefined, null, '', '  \t', 'need to write f.txt in the workspace'],
  subject: 'command',
  compose(effective, approval) {
    const bash = composeBash(effective, approval)
    return async (raw) => ({ stock: await bash.runStock(raw), hardened: await bash.runHardened(raw) })
  },
}

describe("the ladder this package restates is DSH rc.8's", () => {
  it('WIDER_MODES and the advertised targets match @deepseek-ai/dsh-sandbox', () => {
    for (const mode of SANDBOX_MODES) expect(WIDER_MODES[mode]).toEqual(DSH_WIDER_MODES[mode] ?? [])
    expect(ESCALATION_TARGETS).toEqual(['workspace-write', 'danger-full-access'])
  })
})

describe('DSH bash: every (effective mode, requested, justification, approval policy)', () => {
  for (const effective of SANDBOX_MODES) {
    for (const approval of APPROVALS) {
      it(`${effective}, approval ${approval}`, () => checkEveryRequest(BASH, effective, approval))
    }
  }
})

describe('DSH bash: random values', () => {
  it('keeps every invariant for arbitrary strings and JSON in both fields', () => checkRandomValues(BASH))
})

describe('DSH bash: the #1149 payloads', () => {
  const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }
  for (const effective of ['workspace-write', 'danger-full-access'] as const) {
    it(`materialized payload under ${effective}: stock fails, hardened runs in ${effective} without approval`, async () => {
      const bash = composeBash(effective, 'allow')
      const raw = { command: 'ls', description: 'List files', ...MATERIALIZED }
      expect((await bash.runStock(raw)).error).toBe('invalid justification: expected a non-empty sentence')
      expect(await bash.runHardened(raw)).toEqual({
        error: undefined,
        ranUnder: effective,
        approvals: [],
        userAsked: false,
      })
    })
  }

  it('null in both fields: stock fails with ToolArgsError, hardened runs', async () => {
    const bash = composeBash('read-only', 'allow')
    const raw = { command: 'ls', description: 'List files', sandbox_permissions: null, justification: null }
    expect((await bash.runStock(raw)).error).toBe(
      'invalid arguments: "sandbox_permissions" must be a string; "justification" must be a string',
    )
    expect((await bash.runHardened(raw)).ranUnder).toBe('read-only')
  })

  it('advertises both fields as nullable, still optional, and nothing else changes', () => {
    const bash = composeBash('read-only', 'allow')
    const stock = bash.stock.parameters as { properties: Record<string, unknown>; required: string[] }
    const hardened = bash.hardened.parameters as typeof stock
    expect(hardened.required).toEqual(stock.required)
    expect(hardened.properties.sandbox_permissions).toMatchObject({
      type: ['string', 'null'],
      enum: ['workspace-write', 'danger-full-access', null],
    })
    expect(hardened.properties.justification).toMatchObject({ type: ['string', 'null'] })
    for (const key of Object.keys(stock.properties))
      if (key !== 'sandbox_permissions' && key !== 'justification')
        expect(hardened.properties[key]).toBe(stock.properties[key])
  })
})
