import type { ToolIdentity } from '../check/errors.ts'
import { inheritsEnumerableKeys, type JsonObject } from '../json/json-value.ts'
import { type ProjectionOptions, projectParameters } from '../projection/index.ts'
import { readingRules } from '../projection/reading-rules.ts'
import type { ProfileId, Projection } from '../projection/types.ts'
import { ConflictingKeysError, decodeValue, readArguments } from '../read/read-arguments.ts'
import { SlotShapes } from '../read/slot-shape.ts'
import { type ArgumentViolation, ToolArgsError } from '../read/tool-args-error.ts'
import { type EnforceOptions, enforceToolParameters } from '../repair/enforce.ts'
import { findUnsupportedPatterns } from '../validate/pattern-problems.ts'
import { type ArgumentValidator, COMPILE_NODE_BUDGET, compileValidator } from '../validate/validator.ts'
import {
  describeCompileFailure,
  type FallbackValidator,
  NO_FALLBACK,
  patternProblem,
  uncheckable,
  type ValidatorProblem,
} from '../validate/validator-problem.ts'

/**
 * One tool's contract: the declared schema (checked and detached at register), its validator, its wire schema per
 * route, and the path back — read what projection encoded back into the declared shape, then validate against the
 * declared schema. Register only checks and detaches; projections are built on first use per route and the
 * validator on first validation (shared by live contracts with the same schema text, and released when the last of
 * them is collected).
 */
export interface ToolContract {
  readonly identity: ToolIdentity
  /** The detached copy register() checked: later changes to the plugin's object never reach it. */
  readonly declared: JsonObject
  projection(profile: ProfileId): Projection
  /** Every reason `args` do not match the declared schema (empty when they do). */
  validate(args: unknown): readonly ArgumentViolation[]
  /**
   * Why the validator does not check everything itself: ajv could not compile the declared schema (arguments are then
   * checked by the fallback validator, or, without one, every call is refused: never accepted unchecked), or a
   * `pattern` cannot run on the linear-time engine (a call reaching it is refused). Reading it compiles the validator
   * if no validation has yet. The host should print it once.
   */
  readonly validatorProblem: ValidatorProblem | undefined
  /**
   * Compiles the validator now (it is otherwise compiled on first validation), reporting a problem through
   * `onValidatorProblem` once; returns it. For `dsh-harden lint`, which must report problems before any call.
   */
  compileValidator(): ValidatorProblem | undefined
  /**
   * Arguments as the model sent them for `profile`, read back into the declared shape (`normalizeArguments`), then
   * validated once. Throws `ToolArgsError` when the reading does not match the declared schema.
   */
  parseArguments(args: unknown, profile: ProfileId): unknown
  /**
   * The arguments read back into the declared shape in one pass, without validating: what projection encoded is
   * decoded and stringified containers in container-only slots are parsed. The same value when nothing needed it
   * (arguments that match the declared schema come back unchanged, except strings in slots sent as JSON text).
   */
  normalizeArguments(args: unknown, profile: ProfileId): unknown
}

export interface ContractOptions extends EnforceOptions {
  /** Used when ajv cannot compile the declared schema (see `FallbackValidator`). */
  readonly fallbackValidator?: FallbackValidator | undefined
  /** Called once, when the validator is compiled, with the problem (see `ToolContract.validatorProblem`). */
  readonly onValidatorProblem?: ((problem: ValidatorProblem) => void) | undefined
  /** Passed to every projection of this contract (`maxDepth`, `nodeBudget`). */
  readonly projection?: ProjectionOptions | undefined
}

/** What a contract reads after it is built; `mode`, `limits` and `onRepair` only shape the check that builds it. */
type LaterOptions = Pick<ContractOptions, 'fallbackValidator' | 'onValidatorProblem' | 'projection' | 'meter'>

interface CompiledValidator {
  readonly validate: (args: unknown) => readonly ArgumentViolation[]
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
  options: LaterOptions,
): CompiledValidator {
  let validator: ArgumentValidator
  try {
    // The compile's own work is not metered here: ajv's, bounded by the budget, not a hot path (see `validator.ts`).
    validator = compileValidator(declared, { nodeBudget: COMPILE_NODE_BUDGET })
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
  const meter = options.meter
  // ajv runs every other keyword; a call reaching a pattern RE2 cannot run is refused by the validator itself.
  const [unsupported] = findUnsupportedPatterns(declared)
  return {
    validate: (args) => validator(args, meter),
    problem: unsupported === undefined ? undefined : patternProblem(identity, unsupported),
  }
}

class CompiledToolContract implements ToolContract {
  readonly identity: ToolIdentity
  readonly declared: JsonObject
  /** Never a caller's per-tool `onRepair`, which the contract has no use for once built. */
  private readonly options: LaterOptions
  /** Each built on first use: most contracts are projected for one route, many never validated. */
  private projections: Map<ProfileId, Projection> | undefined = undefined
  /** The only strong hold on the compiled validator: when this contract is collected, so is it (`validator.ts`). */
  private validator: CompiledValidator | undefined = undefined
  private shapes: SlotShapes | undefined = undefined

  constructor(declared: JsonObject, identity: ToolIdentity, options: ContractOptions) {
    this.declared = declared
    this.identity = identity
    // Options shared by many contracts (a host's, built once) are kept as they are; a per-tool `onRepair` is dropped.
    if (options.onRepair === undefined) this.options = options
    else {
      const { fallbackValidator, onValidatorProblem, projection, meter } = options
      this.options = { fallbackValidator, onValidatorProblem, projection, meter }
    }
  }

  /**
   * V8 keeps an object shape only while some object has it, and throws away optimized code built on a shape that
   * died. One contract kept for the process keeps this class's shape alive when every tool of a runtime is gone (a
   * reloaded plugin, a disposed runtime), so the next registrations stay on optimized code.
   */
  static readonly keptShape = new CompiledToolContract({ type: 'object', properties: {} }, { tool: '' }, {})

  get validatorProblem(): ValidatorProblem | undefined {
    return this.compiled().problem
  }

  compileValidator(): ValidatorProblem | undefined {
    return this.compiled().problem
  }

  private compiled(): CompiledValidator {
    if (this.validator === undefined) {
      this.validator = buildValidator(this.declared, this.identity, this.options)
      if (this.validator.problem !== undefined) this.options.onValidatorProblem?.(this.validator.problem)
    }
    return this.validator
  }

  projection(profile: ProfileId): Projection {
    this.projections ??= new Map()
    let projection = this.projections.get(profile)
    if (projection === undefined) {
      const { projection: options, meter } = this.options
      projection = projectParameters(
        this.declared,
        profile,
        meter === undefined ? options : { ...options, meter },
      )
      // A schema sent as declared for a reason of the moment (`notProjected`) is projected again at the next use.
      if (projection.notProjected === undefined) this.projections.set(profile, projection)
    }
    return projection
  }

  validate(args: unknown): readonly ArgumentViolation[] {
    return this.compiled().validate(args)
  }

  parseArguments(args: unknown, profile: ProfileId): unknown {
    let value: unknown
    try {
      value = this.normalizeArguments(args, profile)
    } catch (error) {
      if (error instanceof ConflictingKeysError) throw new ToolArgsError(this.identity, [error.violation])
      throw error
    }
    const violations = this.validate(value)
    if (violations.length > 0) throw new ToolArgsError(this.identity, violations)
    return value
  }

  normalizeArguments(args: unknown, profile: ProfileId): unknown {
    const { decoder } = this.projection(profile)
    // The declared schema's slots are read as properties, which inherited keys would fake: only the projection's own
    // encodings are undone then, and arguments to a schema sent as declared reach the tool as sent, as in stock DSH.
    if (inheritsEnumerableKeys()) return decodeValue(args, decoder, this.options.meter)
    this.shapes ??= new SlotShapes(this.declared, this.options.meter)
    return readArguments(args, decoder, this.shapes, this.declared, this.options.meter, readingRules(profile))
  }
}

/**
 * Checks `parameters` against the root contract (throwing `JsonSchemaError`), detaches them and returns the tool's
 * contract. Nothing is compiled yet: the validator on first validation (or `compileValidator()`), each projection
 * on first use.
 */
export function createToolContract(
  parameters: unknown,
  identity: ToolIdentity,
  options: ContractOptions = {},
): ToolContract {
  const declared = enforceToolParameters(parameters, identity, options) as JsonObject
  return new CompiledToolContract(declared, identity, options)
}
