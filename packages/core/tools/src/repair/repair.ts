import { checkToolParameters } from '../check/root-contract.ts'
import type { SchemaRule, SchemaViolation } from '../check/violation.ts'
import type { JsonObject, JsonValue } from '../json/json-value.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../json/limits.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { type OneMeaningFix, planOneMeaningRepairs } from './one-meaning-repairs.ts'

/**
 * A schema's repair as a whole: served only when every violation has exactly one meaning
 * (`one-meaning-repairs.ts`) and the repaired schema meets the root contract; anything else is refused, since a
 * repair that guessed would change what the tool accepts without its author knowing.
 */
export type RepairAttempt =
  | {
      readonly kind: 'repaired'
      readonly schema: JsonObject
      /** One per violation, in order. */
      readonly fixes: readonly OneMeaningFix[]
    }
  | {
      readonly kind: 'refused'
      /** The violations, a root union's own reason (which branch has no object reading) in place of the generic one. */
      readonly violations: readonly SchemaViolation[]
    }

/** The repair of `violations`, found on `snapshot` (a detached copy the caller owns, which it changes). */
export function repairParameters(
  snapshot: JsonValue,
  violations: readonly SchemaViolation[],
  limits: SizeLimits = DEFAULT_LIMITS,
  meter?: WorkMeter,
): RepairAttempt {
  const plan = planOneMeaningRepairs(snapshot, violations)
  const fixes = plan.fixes.filter((f) => f !== undefined)
  if (fixes.length < violations.length) return refused(violations)
  const applied = plan.apply()
  if ('refused' in applied)
    return refused(violations.map((v) => (v.rule === 'root-union' ? applied.refused : v)))
  // A fix can leave what another mistake hid (a union whose branch then reads as no object): checked again.
  if (checkToolParameters(applied.schema, limits, meter).violations.length > 0) return refused(violations)
  return { kind: 'repaired', schema: applied.schema, fixes }
}

function refused(violations: readonly SchemaViolation[]): RepairAttempt {
  return { kind: 'refused', violations }
}

/** The refusal of a schema `mode: repair` would not serve either: each violation is marked `repairable: false`. */
export function declineRepair(violations: readonly SchemaViolation[]): SchemaViolation[] {
  return violations.map((v) => ({ ...v, repairable: false }))
}

/**
 * The refusal of a repairable schema (the default `refuse` mode): each violation's hint also says what `mode: repair`
 * would serve, and each is marked `repairable: true`.
 */
export function offerRepair(
  violations: readonly SchemaViolation[],
  fixes: readonly OneMeaningFix[],
): SchemaViolation[] {
  return violations.map((v, index) => ({
    ...v,
    hint: `${v.hint}; or set \`mode: repair\` in the dsh-harden row to serve the tool ${fixes[index]!.serves}`,
    repairable: true,
  }))
}

// A violation not marked by a refusal (built by hand) is judged by its rule: these are repaired whatever the value.
const REPAIRED_BY_RULE: ReadonlySet<SchemaRule> = new Set([
  'bare-property-table',
  'root-empty',
  'root-type-missing',
  'required-in-property',
])

/** Whether `mode: repair` would serve a tool refused with these violations. */
export function isRepairable(violations: readonly SchemaViolation[]): boolean {
  return violations.length > 0 && violations.every((v) => v.repairable ?? REPAIRED_BY_RULE.has(v.rule))
}
