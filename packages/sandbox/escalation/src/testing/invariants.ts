import fc from 'fast-check'
import { expect } from 'vitest'
import { isSandboxMode, isStrictlyWider, SANDBOX_MODES, type SandboxMode } from '../modes.ts'
import type { ApprovalSetting, Outcome } from './recording.ts'

const RANK: Record<SandboxMode, number> = { 'read-only': 0, 'workspace-write': 1, 'danger-full-access': 2 }

/** Every `sandbox_permissions` value the matrix tries: absent, `null`, `""`, each mode, garbage. */
export const REQUESTED: readonly unknown[] = [undefined, null, '', ...SANDBOX_MODES, 'bogus']
export const APPROVALS: readonly ApprovalSetting[] = ['allow', 'reject', 'never']

const isBlank = (j: unknown) => j === undefined || j === null || (typeof j === 'string' && j.trim() === '')
const hasText = (j: unknown) => typeof j === 'string' && j.trim() !== ''

/** One call, stock and hardened. */
export type RunBoth = (raw: Record<string, unknown>) => Promise<{ stock: Outcome; hardened: Outcome }>

export interface EscalationMatrix {
  /** The tool's own arguments; the matrix adds the two fields. */
  readonly base: Readonly<Record<string, unknown>>
  /** The `justification` values the matrix tries (absent, `null`, blank, text). */
  readonly justifications: readonly unknown[]
  /** What DSH's rejection names: `command` for the shells, `operation` for the fs tools. */
  readonly subject: 'command' | 'operation'
  /** A fresh composition under this effective mode and approval policy. */
  readonly compose: (effective: SandboxMode, approval: ApprovalSetting) => RunBoth
}

/** The tool's arguments with the two escalation fields set; an `undefined` field is left out. */
export function escalationArgs(
  base: Readonly<Record<string, unknown>>,
  requested: unknown,
  justification: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  if (requested !== undefined) out.sandbox_permissions = requested
  if (justification !== undefined) out.justification = justification
  return out
}

/** The invariants every hardened call keeps, given what stock DSH did with the same arguments. */
export function checkCall(
  subject: EscalationMatrix['subject'],
  effective: SandboxMode,
  approval: ApprovalSetting,
  raw: Record<string, unknown>,
  stock: Outcome,
  hardened: Outcome,
): void {
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
      expect(hardened.error).toBe(`the user rejected escalating this ${subject} to "${String(requested)}"`)
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
    requested === undefined || requested === null
      ? isBlank(raw.justification)
      : isSandboxMode(requested) && !isStrictlyWider(requested, effective)
  if (placeholder) {
    expect(hardened).toEqual({ error: undefined, ranUnder: effective, approvals: [], userAsked: false })
  }
}

/** Every (requested, justification) pair of the matrix through one composition. */
export async function checkEveryRequest(
  matrix: EscalationMatrix,
  effective: SandboxMode,
  approval: ApprovalSetting,
): Promise<void> {
  const runBoth = matrix.compose(effective, approval)
  for (const requested of REQUESTED) {
    for (const justification of matrix.justifications) {
      const raw = escalationArgs(matrix.base, requested, justification)
      const { stock, hardened } = await runBoth(raw)
      checkCall(matrix.subject, effective, approval, raw, stock, hardened)
    }
  }
}

/** The same invariants for arbitrary strings and JSON in both fields (300 runs). */
export async function checkRandomValues(matrix: EscalationMatrix): Promise<void> {
  const value = fc.oneof(fc.constantFrom(...REQUESTED, ...matrix.justifications), fc.string(), fc.jsonValue())
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...SANDBOX_MODES),
      fc.constantFrom(...APPROVALS),
      value,
      value,
      async (effective, approval, requested, justification) => {
        const raw = escalationArgs(matrix.base, requested, justification)
        const { stock, hardened } = await matrix.compose(effective, approval)(raw)
        checkCall(matrix.subject, effective, approval, raw, stock, hardened)
      },
    ),
    { numRuns: 300 },
  )
}
