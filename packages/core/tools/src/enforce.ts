import { JsonSchemaError, type ToolIdentity } from './errors.ts'
import { DEFAULT_LIMITS, type SizeLimits } from './limits.ts'
import { repairParameters } from './repair.ts'
import { checkToolParameters } from './root-contract.ts'
import type { SchemaViolation } from './violation.ts'
import type { WorkMeter } from './work-meter.ts'

/**
 * `throw` (default): any violation throws a `JsonSchemaError`. `repair`: a mistake with exactly one meaning (a bare
 * property table, `{}`, a missing root `type`, `required: true` inside a property) is fixed and reported through
 * `onRepair`; anything else still throws.
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
  const result = checkToolParameters(parameters, options.limits ?? DEFAULT_LIMITS, options.meter)
  if (result.violations.length === 0) return result.snapshot
  if (options.mode === 'repair' && result.snapshot !== undefined) {
    const repaired = repairParameters(result.snapshot, result.violations)
    if (repaired !== undefined) {
      const recheck = checkToolParameters(repaired, options.limits ?? DEFAULT_LIMITS, options.meter)
      if (recheck.violations.length > 0) throw new JsonSchemaError(identity, recheck.violations)
      options.onRepair?.({ identity, repaired: result.violations })
      return repaired
    }
  }
  throw new JsonSchemaError(identity, result.violations)
}
