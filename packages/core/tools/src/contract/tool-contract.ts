import { type EnforceOptions, enforceToolParameters } from '../enforce.ts'
import type { ToolIdentity } from '../errors.ts'
import type { JsonObject } from '../json-value.ts'
import { projectParameters } from '../projection/index.ts'
import type { ProfileId, Projection } from '../projection/types.ts'
import { decodeValue } from './decode.ts'
import { parseStringifiedContainers } from './stringified.ts'
import { type ArgumentViolation, ToolArgsError } from './tool-args-error.ts'
import { type ArgumentValidator, compileValidator } from './validator.ts'

/**
 * One tool's contract, compiled once: the declared schema (checked at load), its wire schema per route, and the
 * path back — decode what projection encoded, then validate against the declared schema. Projections and the
 * validator are built on first use, so registering a tool costs only the root-contract check.
 */
export interface ToolContract {
  readonly identity: ToolIdentity
  readonly declared: JsonObject
  projection(profile: ProfileId): Projection
  /** Every reason `args` do not match the declared schema (empty when they do). */
  validate(args: unknown): readonly ArgumentViolation[]
  /**
   * Set when the validator could not be compiled (ajv rejected a construct the root contract let through). The
   * contract then decodes but does not validate, and the host should say so once.
   */
  readonly validatorProblem: string | undefined
  /**
   * Arguments as the model sent them for `profile`, read back into the declared shape: the same value when they
   * already match. Throws `ToolArgsError` when no reading matches.
   */
  parseArguments(args: unknown, profile: ProfileId): unknown
  /** Like `parseArguments`, but returns the best reading instead of throwing; for presenters, which must not fail. */
  normalizeArguments(args: unknown, profile: ProfileId): unknown
}

// Each pass parses the stringified containers the validator found; nesting one inside another takes another pass.
const MAX_REPAIR_PASSES = 8

interface Reading {
  readonly value: unknown
  readonly violations: readonly ArgumentViolation[]
}

class CompiledToolContract implements ToolContract {
  readonly identity: ToolIdentity
  readonly declared: JsonObject
  private readonly projections = new Map<ProfileId, Projection>()
  private validator: ArgumentValidator | undefined
  validatorProblem: string | undefined = undefined

  constructor(declared: JsonObject, identity: ToolIdentity) {
    this.declared = declared
    this.identity = identity
  }

  projection(profile: ProfileId): Projection {
    let projection = this.projections.get(profile)
    if (projection === undefined) {
      projection = projectParameters(this.declared, profile)
      this.projections.set(profile, projection)
    }
    return projection
  }

  validate(args: unknown): readonly ArgumentViolation[] {
    this.validator ??= this.compile()
    return this.validator(args)
  }

  private compile(): ArgumentValidator {
    try {
      return compileValidator(this.declared)
    } catch (error) {
      this.validatorProblem = error instanceof Error ? error.message : String(error)
      return () => []
    }
  }

  private read(args: unknown, profile: ProfileId): Reading {
    const readings = decodeValue(args, this.projection(profile).decoder)
    let first: Reading | undefined
    for (const value of readings) {
      const violations = this.validate(value)
      if (violations.length === 0) return { value, violations }
      first ??= { value, violations }
    }
    let reading = first!
    for (let pass = 0; pass < MAX_REPAIR_PASSES; pass++) {
      const repaired = parseStringifiedContainers(reading.value, reading.violations)
      if (repaired === reading.value) break
      reading = { value: repaired, violations: this.validate(repaired) }
      if (reading.violations.length === 0) break
    }
    return reading
  }

  parseArguments(args: unknown, profile: ProfileId): unknown {
    const reading = this.read(args, profile)
    if (reading.violations.length > 0) throw new ToolArgsError(this.identity, reading.violations)
    return reading.value
  }

  normalizeArguments(args: unknown, profile: ProfileId): unknown {
    return this.read(args, profile).value
  }
}

/** Checks `parameters` against the root contract (throwing `JsonSchemaError`) and returns the tool's contract. */
export function compileToolContract(
  parameters: unknown,
  identity: ToolIdentity,
  options: EnforceOptions = {},
): ToolContract {
  const declared = enforceToolParameters(parameters, identity, options) as JsonObject
  return new CompiledToolContract(declared, identity)
}
