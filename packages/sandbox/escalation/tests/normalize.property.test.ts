import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  blankJustificationError,
  isSandboxMode,
  isStrictlyWider,
  normalizeEscalation,
  SANDBOX_MODES,
  type SandboxMode,
} from '../src/index.ts'
import { argsArb, callArgs, JUSTIFICATIONS, modeArb, RANK, REQUESTED_VALUES } from './arbitraries.ts'

/** What DSH rc.8 accepts today (schema enum + validateEscalationArgs + approveEscalation's strictly-wider check). */
function dshAccepts(args: Record<string, unknown>, mode: SandboxMode): boolean {
  const sp = args.sandbox_permissions
  const j = args.justification
  if (sp === undefined && j === undefined) return true
  if (sp === undefined || j === undefined) return false
  if (typeof j !== 'string' || j.trim().length === 0) return false
  return sp === 'workspace-write' || sp === 'danger-full-access' ? isStrictlyWider(sp, mode) : false
}

const modeOrUnconfined = fc.option(modeArb, { nil: undefined })

describe('normalizeEscalation: only removes', () => {
  it('never adds a key and never changes a kept value', () => {
    fc.assert(
      fc.property(argsArb, modeOrUnconfined, (args, mode) => {
        const { args: out } = normalizeEscalation(args, mode)
        for (const [key, value] of Object.entries(out)) expect(value).toBe(args[key])
        expect(Object.keys(out).every((key) => Object.hasOwn(args, key))).toBe(true)
      }),
    )
  })

  it('the normalized request is never wider than the raw one', () => {
    fc.assert(
      fc.property(argsArb, modeOrUnconfined, (args, mode) => {
        const { args: out } = normalizeEscalation(args, mode)
        const after = out.sandbox_permissions
        if (after === undefined) return
        expect(after).toBe(args.sandbox_permissions)
        if (isSandboxMode(after) && isSandboxMode(args.sandbox_permissions))
          expect(RANK[after]).toBeLessThanOrEqual(RANK[args.sandbox_permissions])
      }),
    )
  })

  it('only touches the two escalation fields', () => {
    fc.assert(
      fc.property(argsArb, modeOrUnconfined, (args, mode) => {
        const { args: out, dropped } = normalizeEscalation(args, mode)
        for (const key of Object.keys(args))
          if (key !== 'sandbox_permissions' && key !== 'justification') expect(out[key]).toBe(args[key])
        for (const d of dropped) expect(['sandbox_permissions', 'justification']).toContain(d.field)
      }),
    )
  })

  it('keeps every strictly wider request exactly as sent, justification included', () => {
    fc.assert(
      fc.property(argsArb, modeArb, (args, mode) => {
        if (!isStrictlyWider(args.sandbox_permissions, mode)) return
        const { args: out } = normalizeEscalation(args, mode)
        expect(out.sandbox_permissions).toBe(args.sandbox_permissions)
        if (args.justification !== null) expect(out.justification).toBe(args.justification)
      }),
    )
  })

  it('is the identity (same object) on every call DSH accepts today', () => {
    fc.assert(
      fc.property(argsArb, modeArb, (args, mode) => {
        if (!dshAccepts(args, mode)) return
        const result = normalizeEscalation(args, mode)
        expect(result.args).toBe(args)
        expect(result.dropped).toEqual([])
      }),
    )
  })
})

describe('normalizeEscalation: every combination of mode, requested value and justification', () => {
  for (const mode of SANDBOX_MODES) {
    for (const requested of REQUESTED_VALUES) {
      for (const justification of JUSTIFICATIONS) {
        const args = callArgs(requested, justification)
        const label = `${mode} / ${JSON.stringify(requested)} / ${JSON.stringify(justification)}`
        it(label, () => {
          const { args: out, noOpMode } = normalizeEscalation(args, mode)
          const sp = requested === null ? undefined : requested
          const j = justification === null ? undefined : justification
          if (sp === undefined) {
            expect(out.sandbox_permissions).toBeUndefined()
            const blank = typeof j === 'string' && j.trim() === ''
            expect(out.justification).toBe(blank ? undefined : j)
          } else if (isSandboxMode(sp) && RANK[sp] <= RANK[mode]) {
            expect(noOpMode).toBe(mode)
            expect(out).not.toHaveProperty('sandbox_permissions')
            expect(out).not.toHaveProperty('justification')
          } else {
            expect(out.sandbox_permissions).toBe(sp)
            expect(out.justification).toBe(j)
          }
        })
      }
    }
  }
})

describe('blankJustificationError', () => {
  it('fires exactly for a strictly wider request whose justification is missing, null or blank', () => {
    fc.assert(
      fc.property(argsArb, modeArb, (args, mode) => {
        const error = blankJustificationError(args, mode, 'command')
        const j = args.justification
        const blank = j === undefined || j === null || (typeof j === 'string' && j.trim() === '')
        expect(error !== undefined).toBe(isStrictlyWider(args.sandbox_permissions, mode) && blank)
      }),
    )
  })

  it('tells the model to omit the fields or send null unless it is retrying a denied call', () => {
    const error = blankJustificationError(callArgs('danger-full-access', ''), 'workspace-write', 'command')
    expect(error?.message).toBe(
      'invalid escalation: sandbox_permissions "danger-full-access" asks for wider access than this call\'s current ' +
        '"workspace-write" mode, so it needs a non-empty one-sentence justification and user approval. Unless you ' +
        'are retrying a command the sandbox just denied, omit sandbox_permissions and justification (or send null ' +
        'for both) and the command runs in its current mode.',
    )
  })

  it('stays silent without a confining backend, where DSH says the escalation is not available', () => {
    expect(blankJustificationError(callArgs('danger-full-access', ''), undefined, 'command')).toBeUndefined()
  })
})
