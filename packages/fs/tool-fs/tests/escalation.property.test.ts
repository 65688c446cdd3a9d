import { isSandboxMode, isStrictlyWider, SANDBOX_MODES, type SandboxMode } from '@dsh-harden/escalation'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ApprovalSetting, composeFs, type Outcome } from './compose.ts'

const RANK: Record<SandboxMode, number> = { 'read-only': 0, 'workspace-write': 1, 'danger-full-access': 2 }
const REQUESTED: readonly unknown[] = [undefined, null, '', ...SANDBOX_MODES, 'bogus']
const JUSTIFICATIONS: readonly unknown[] = [undefined, null, '', '\n', 'need to write g.txt']
const APPROVALS: readonly ApprovalSetting[] = ['allow', 'reject', 'never']
const TOOLS = {
  write: { file_path: 'g.txt', content: 'x' },
  edit: { file_path: 'g.txt', old_string: 'a', new_string: 'x' },
} as const

function args(tool: keyof typeof TOOLS, requested: unknown, justification: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...TOOLS[tool] }
  if (requested !== undefined) out.sandbox_permissions = requested
  if (justification !== undefined) out.justification = justification
  return out
}

const hasText = (j: unknown) => typeof j === 'string' && j.trim() !== ''

function checkCall(
  effective: SandboxMode,
  approval: ApprovalSetting,
  raw: Record<string, unknown>,
  stock: Outcome,
  hardened: Outcome,
) {
  const requested = raw.sandbox_permissions
  if (hardened.ranUnder !== undefined && RANK[hardened.ranUnder] > RANK[effective]) {
    expect(hardened.ranUnder).toBe(requested)
    expect(hasText(raw.justification) && hardened.userAsked && approval === 'allow').toBe(true)
  }
  if (stock.error === undefined) expect(hardened).toEqual(stock)
  if (isStrictlyWider(requested, effective) && hasText(raw.justification)) {
    expect(hardened).toEqual(stock)
    if (approval === 'never')
      expect(hardened.error).toBe(`the user rejected escalating this operation to "${String(requested)}"`)
  }
  const blank =
    raw.justification === undefined ||
    raw.justification === null ||
    (typeof raw.justification === 'string' && !hasText(raw.justification))
  if (isStrictlyWider(requested, effective) && blank) expect(hardened.error).toMatch(/send null for both/)
  const placeholder =
    requested === undefined || requested === null
      ? blank
      : isSandboxMode(requested) && !isStrictlyWider(requested, effective)
  if (placeholder)
    expect(hardened).toEqual({ error: undefined, ranUnder: effective, approvals: [], userAsked: false })
}

for (const tool of ['write', 'edit'] as const) {
  describe(`DSH ${tool}: every (effective mode, requested, justification, approval policy)`, () => {
    for (const effective of SANDBOX_MODES) {
      for (const approval of APPROVALS) {
        it(`${effective}, approval ${approval}`, async () => {
          const fs = composeFs(effective, approval)
          for (const requested of REQUESTED) {
            for (const justification of JUSTIFICATIONS) {
              const raw = args(tool, requested, justification)
              checkCall(
                effective,
                approval,
                raw,
                await fs.run(fs.stockOf(tool), raw),
                await fs.run(fs.hardenedOf(tool), raw),
              )
            }
          }
        })
      }
    }
  })
}

describe('DSH write: random values', () => {
  it('keeps every invariant for arbitrary strings and JSON in both fields', async () => {
    const value = fc.oneof(fc.constantFrom(...REQUESTED, ...JUSTIFICATIONS), fc.string(), fc.jsonValue())
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SANDBOX_MODES),
        fc.constantFrom(...APPROVALS),
        value,
        value,
        async (effective, approval, r, j) => {
          const fs = composeFs(effective, approval)
          const raw = args('write', r, j)
          checkCall(
            effective,
            approval,
            raw,
            await fs.run(fs.stockOf('write'), raw),
            await fs.run(fs.hardenedOf('write'), raw),
          )
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('DSH fs: the tools it changes', () => {
  it('leaves read alone and widens only the two fields on write and edit', () => {
    const fs = composeFs('read-only', 'allow')
    expect(fs.hardenedOf('read')).toBe(fs.stockOf('read'))
    for (const tool of ['write', 'edit']) {
      expect(fs.hardenedOf(tool).parameters).toMatchObject({
        properties: {
          sandbox_permissions: {
            type: ['string', 'null'],
            enum: ['workspace-write', 'danger-full-access', null],
          },
          justification: { type: ['string', 'null'] },
        },
      })
    }
  })
})
