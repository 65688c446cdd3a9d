import { type EnforceOptions, enforceToolParameters } from '../enforce.ts'
import type { ToolIdentity } from '../errors.ts'
import type { JsonObject } from '../json-value.ts'
import { type ProjectionOptions, projectParameters } from '../projection/index.ts'
import type { ProfileId, Projection } from '../projection/types.ts'
import { decodeValue } from './decode.ts'
import { parseStringifiedContainers } from './stringified.ts'
import { type ArgumentViolation, ToolArgsError } from './tool-args-error.ts'
import { type ArgumentValidator, compileValidator } from './validator.ts'
import {
  describeCompileFailure,
  type FallbackValidator,
  NO_FALLBACK,
  uncheckable,
  type ValidatorProblem,
} from './validator-problem.ts'

/**
 * One tool's contract, compiled once at register: the declared schema (checked and detached), its validator, its
 * wire schema per route, and the path back — decode what projection encoded, then validate against the declared
 * schema. Projections are built on first use; ajv validators are cached by schema text, so registering the same tool
 * again costs no compile.
 */
export interface ToolContract {
  readonly identity: ToolIdentity
  /** The detached copy register() checked: later changes to the plugin's object never reach it. */
  readonly declared: JsonObject
  projection(profile: ProfileId): Projection
  /** Every reason `args` do not match the declared schema (empty when they do). */
  validate(args: unknown): readonly ArgumentViolation[]
  /**
   * Set at register when ajv could not compile the declared schema. Arguments are then checked by the fallback
   * validator, or, without one, every call is refused: never accepted unchecked. The host should print it once.
   */
  readonly validatorProblem: ValidatorProblem | undefined
  /**
   * Arguments as the model sent them for `profile`, read back into the declared shape: the same value when they
   * already match. Throws `ToolArgsError` when no reading matches.
   */
  parseArguments(args: unknown, profile: ProfileId): unknown
  /** Like `parseArguments`, but returns the best reading instead of throwing; for presenters, which must not fail. */
  normalizeArguments(args: unknown, profile: ProfileId): unknown
}

export interface ContractOptions extends EnforceOptions {
  /** Used when ajv cannot compile the declared schema (see `FallbackValidator`). */
  readonly fallbackValidator?: FallbackValidator | undefined
  /** Called at register with the problem when ajv cannot compile the declared schema. */
  readonly onValidatorProblem?: ((problem: ValidatorProblem) => void) | undefined
  /** Passed to every projection of this contract (`maxDepth`, `nodeBudget`). */
  readonly projection?: ProjectionOptions | undefined
}

// Each pass parses the stringified containers the validator found; nesting one inside another takes another pass.
const MAX_REPAIR_PASSES = 8

interface Reading {
  readonly value: unknown
  readonly violations: readonly ArgumentViolation[]
}

interface CompiledValidator {
  readonly validate: ArgumentValidator
  readonly problem: ValidatorProblem | undefined
}

/** The fallback's verdict; a fallback that throws (a construct outside what it reads) refuses the call, naming why. */
function runFallback(
  fallback: FallbackValidator,
  declared: JsonObject,
  args: unknown,
): readonly ArgumentViolation[] {
  try {
    return fallback.validate(declared, args)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return [
      { pointer: '', keyword: 'schema', message: `cannot be checked: ${fallback.label} failed: ${reason}` },
    ]
  }
}

/** ajv on the declared schema; when it cannot compile, the fallback, or a refusal for every call. */
function buildValidator(
  declared: JsonObject,
  identity: ToolIdentity,
  options: ContractOptions,
): CompiledValidator {
  try {
    return { validate: compileValidator(declared), problem: undefined }
  } catch (error) {
    const fallback = options.fallbackValidator
    const problem: ValidatorProblem = {
      identity,
      ...describeCompileFailure(error),
      fallback: fallback === undefined ? NO_FALLBACK : fallback.label,
    }
    const refusal = uncheckable(problem)
    return {
      validate: fallback === undefined ? () => refusal : (args) => runFallback(fallback, declared, args),
      problem,
    }
  }
}

class CompiledToolContract implements ToolContract {
  readonly identity: ToolIdentity
  readonly declared: JsonObject
  readonly validatorProblem: ValidatorProblem | undefined
  private readonly projections = new Map<ProfileId, Projection>()
  private readonly validator: ArgumentValidator
  private readonly projectionOptions: ProjectionOptions

  constructor(declared: JsonObject, identity: ToolIdentity, options: ContractOptions) {
    this.declared = declared
    this.identity = identity
    this.projectionOptions = options.projection ?? {}
    const { validate, problem } = buildValidator(declared, identity, options)
    this.validator = validate
    this.validatorProblem = problem
    if (problem !== undefined) options.onValidatorProblem?.(problem)
  }

  projection(profile: ProfileId): Projection {
    let projection = this.projections.get(profile)
    if (projection === undefined) {
      projection = projectParameters(this.declared, profile, this.projectionOptions)
      this.projections.set(profile, projection)
    }
    return projection
  }

  validate(args: unknown): readonly ArgumentViolation[] {
    return this.validator(args)
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

/**
 * Checks `parameters` against the root contract (throwing `JsonSchemaError`), detaches them, compiles the validator
 * (reporting through `onValidatorProblem` when ajv cannot) and returns the tool's contract.
 */
export function compileToolContract(
  parameters: unknown,
  identity: ToolIdentity,
  options: ContractOptions = {},
): ToolContract {
  const declared = enforceToolParameters(parameters, identity, options) as JsonObject
  return new CompiledToolContract(declared, identity, options)
}
