import fc from 'fast-check'
import { SANDBOX_MODES, type SandboxMode } from '../src/index.ts'

/** Every value the tests send for `sandbox_permissions`: absent, null, "", each mode, garbage. */
export const REQUESTED_VALUES: readonly unknown[] = [
  undefined,
  null,
  '',
  ...SANDBOX_MODES,
  'bogus',
  'READ-ONLY',
  42,
]
/** Every value the tests send for `justification`: absent, null, "", whitespace, text. */
export const JUSTIFICATIONS: readonly unknown[] = [
  undefined,
  null,
  '',
  '   \n\t',
  'need to write f.txt in the workspace',
]

export const modeArb: fc.Arbitrary<SandboxMode> = fc.constantFrom(...SANDBOX_MODES)
export const requestedArb = fc.oneof(fc.constantFrom(...REQUESTED_VALUES), fc.string(), fc.jsonValue())
export const justificationArb = fc.oneof(fc.constantFrom(...JUSTIFICATIONS), fc.string(), fc.jsonValue())

/** A call's arguments with the two fields set (or left out, for `undefined`) on top of other fields. */
export function callArgs(requested: unknown, justification: unknown, rest: Record<string, unknown> = {}) {
  const args: Record<string, unknown> = { command: 'echo hi > f.txt', description: 'write f', ...rest }
  if (requested !== undefined) args.sandbox_permissions = requested
  if (justification !== undefined) args.justification = justification
  return args
}

export const argsArb = fc
  .tuple(requestedArb, justificationArb, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }))
  .map(([requested, justification, rest]) => callArgs(requested, justification, rest))

export const RANK: Record<SandboxMode, number> = {
  'read-only': 0,
  'workspace-write': 1,
  'danger-full-access': 2,
}
