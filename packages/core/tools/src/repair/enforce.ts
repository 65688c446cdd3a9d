import { JsonSchemaError, type ToolIdentity } from '../check/errors.ts'
import { checkToolParameters } from '../check/root-contract.ts'
import type { SchemaViolation } from '../check/violation.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../json/limits.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { declineRepair, offerRepair, repairParameters } from './repair.ts'

/**
 * `throw` (default): any violation throws a `JsonSchemaError`; when every violation has exactly one meaning, each
 * hint says what `repair` would serve instead. `repair`: such a schema is served repaired (a bare property table,
 * `{}`, a missing root `type`, `required: true` inside a property, a root `$ref`, `required: null`,
 * `properties: null`, a root union of object schemas, a required name `properties` does not declare: see
 * `one-meaning-repairs.ts`) and reported through `onRepair`; anything else still throws.
 */
export type RootContractMode = 'throw' | 'repair'

export interface RepairReport {
  readonly identity: ToolIdentity
  /** What was wrong and has been fixed, with the pointers into the schema as declared. */
  readonly repaired: readonly SchemaViolation[]
}

export interface EnforceOptions {
  readonly mode?: RootContractMode | undefined
  readonly limits?: SizeLimits | undefined
  readonly onRepair?: ((report: RepairReport) => void) | undefined
  /** Counts the check's work (tests only; see `WorkMeter`). */
  readonly meter?: WorkMeter | undefined
}

/**
 * Returns the parameters to register: a detached copy made while checking, equal as JSON to what was declared when
 * it already meets the root contract (so it reaches the model byte for byte as declared), or a repaired copy in
 * `repair` mode. Throws `JsonSchemaError` otherwise. The plugin's own object is never read again.
 */
export function enforceToolParameters(
  parameters: unknown,
  identity: ToolIdentity,
  options: EnforceOptions = {},
): unknown {
  const limits = options.limits ?? DEFAULT_LIMITS
  const result = checkToolParameters(parameters, limits, options.meter)
  if (result.violations.length === 0) return result.snapshot
  if (result.snapshot === undefined) throw new JsonSchemaError(identity, declineRepair(result.violations))
  const attempt = repairParameters(result.snapshot, result.violations, limits, options.meter)
  if (attempt.kind === 'refused') throw new JsonSchemaError(identity, declineRepair(attempt.violations))
  if (options.mode !== 'repair')
    throw new JsonSchemaError(identity, offerRepair(result.violations, attempt.fixes))
  options.onRepair?.({ identity, repaired: attempt.fixes.map((fix) => fix.report) })
  return attempt.schema
}
