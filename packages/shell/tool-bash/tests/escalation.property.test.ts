import { WIDER_MODES as DSH_WIDER_MODES, ESCALATION_TARGETS } from '@deepseek-ai/dsh-sandbox'
import {
  isSandboxMode,
  isStrictlyWider,
  SANDBOX_MODES,
  type SandboxMode,
  WIDER_MODES,
} from '@dsh-harden/escalation'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ApprovalSetting, composeBash, type Outcome } from './compose.ts'

const RANK: Record<SandboxMode, number> = { 'read-only': 0, 'workspace-write': 1, 'danger-full-access': 2 }
const REQUESTED: readonly unknown[] = [undefined, null, '', ...SANDBOX_MODES, 'bogus']
const JUSTIFICATIONS: readonly unknown[] = [
  undefined,
  null,
  '',
  '  \t',
  'need to write f.txt in the workspace',
]
const APPROVALS: readonly ApprovalSetting[] = ['allow', 'reject', 'never']

function args(requested: unknown, justification: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { command: 'echo hi > f.txt', description: 'Write f.txt' }
  if (requested !== undefined) out.sandbox_permissions = requested
  if (justification !== undefined) out.justification = justification
  return out
}

const isBlank = (j: unknown) => j === undefined || j === null || (typeof j === 'string' && j.trim() === '')
const hasText = (j: unknown) => typeof j === 'string' && j.trim() !== ''

/** The invariants every hardened call keeps, given what stock DSH did with the same arguments. */
function checkCall(
  effective: SandboxMode,
  approval: ApprovalSetting,
  raw: Record<string, unknown>,
  stock: Outcome,
  hardened: Outcome,
) {
  const requested = raw.sandbox_permissions
  // 1. Nothing runs wider than its effective mode unless the raw call asked for exactly that mode, with a real
  //    justification, and the user answered allowed-once.
  if (hardened.ranUnder !== undefined && RANK[hardened.ranUnder] > RANK[effective]) {
    expect(hardened.ranUnder).toBe(requested)
    expect(hasText(raw.justification)).toBe(true)
    expect(hardened.userAsked).toBe(true)
    expect(approval).toBe('allow')
  }
  // 2. Identity on every call stock DSH accepts: the same mode, the same approvals.
  if (stock.error === undefined) expect(hardened).toEqual(stock)
  // 3. A strictly wider request keeps approval, and fails closed under `never` with DSH's own text.
  if (isStrictlyWider(requested, effective) && hasText(raw.justification)) {
    expect(hardened).toEqual(stock)
    expect(hardened.approvals).toHaveLength(1)
    if (approval === 'never') {
      expect(hardened.userAsked).toBe(false)
      expect(hardened.error).toBe(`the user rejected escalating this command to "${String(requested)}"`)
    }
  }
  // 4. A strictly wider request with a missing, null or blank justification still fails, with the guidance text
  //    (a non-string justification still gets DSH's own schema error).
  if (isStrictlyWider(requested, effective) && isBlank(raw.justification)) {
    expect(hardened.ranUnder).toBeUndefined()
    expect(hardened.error).toMatch(/omit sandbox_permissions and justification \(or send null for both\)/)
  }
  // 5. Placeholders: the call runs in its current mode, with no approval.
  const placeholder =
    (requested === undefined ||
      requested === null ||
      (isSandboxMode(requested) && !isStrictlyWider(requested, effective))) &&
    (requested !== undefined && requested !== null ? true : isBlank(raw.justification))
  if (placeholder) {
    expect(hardened).toEqual({ error: undefined, ranUnder: effective, approvals: [], userAsked: false })
  }
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
      it(`${effective}, approval ${approval}`, async () => {
        const bash = composeBash(effective, approval)
        for (const requested of REQUESTED) {
          for (const justification of JUSTIFICATIONS) {
            const raw = args(requested, justification)
            const stock = await bash.runStock(raw)
            const hardened = await bash.runHardened(raw)
            checkCall(effective, approval, raw, stock, hardened)
          }
        }
      })
    }
  }
})

describe('DSH bash: random values', () => {
  it('keeps every invariant for arbitrary strings and JSON in both fields', async () => {
    const value = fc.oneof(fc.constantFrom(...REQUESTED, ...JUSTIFICATIONS), fc.string(), fc.jsonValue())
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SANDBOX_MODES),
        fc.constantFrom(...APPROVALS),
        value,
        value,
        async (effective, approval, requested, justification) => {
          const bash = composeBash(effective, approval)
          const raw = args(requested, justification)
          checkCall(effective, approval, raw, await bash.runStock(raw), await bash.runHardened(raw))
        },
      ),
      { numRuns: 300 },
    )
  })
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
