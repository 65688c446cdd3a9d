import {
  type ContractOptions,
  compileToolContract,
  type EnforceOptions,
  JsonSchemaError,
  type ProfileId,
  type RootContractMode,
  type ToolContract,
  type ToolIdentity,
  type ValidatorProblem,
} from '@dsh-harden/tools'
import { bindContract } from './contract-definition.ts'
import {
  type Registration,
  registrationOf,
  toolsOfReceiver,
  withDefinitionTransforms,
} from './definition-transforms.ts'
import { DSH_FALLBACK_VALIDATOR } from './dsh-fallback.ts'
import { stderrOnly, validatorProblemNotice } from './notices.ts'

/** The slice of DSH's `ToolDefinition` the overlay reads; everything else passes through untouched. */
export interface RegisteredTool {
  readonly name?: unknown
  readonly parameters?: unknown
}

export type RegisterMethod<D extends RegisteredTool = RegisteredTool> = (
  this: unknown,
  definition: D,
) => () => void

/** What the overlay decided about one registration: the verdicts `dsh-harden lint` prints. */
export interface RegistrationVerdict {
  readonly identity: ToolIdentity
  /** `null` when the tool passed the root contract (possibly after a repair). */
  readonly error: JsonSchemaError | null
}

/**
 * What happens to a tool that fails the root contract. `refuse` (default): it is not registered and never reaches the
 * model; its plugin keeps loading. `repair`: mistakes with exactly one meaning are fixed, anything else is refused.
 * `throw`: the `JsonSchemaError` is thrown to the registering plugin (DSH then fails to start) — for CI profiles and
 * tests. `collect` is `refuse` under the name `dsh-harden lint` uses.
 */
export type OverlayMode = RootContractMode | 'refuse' | 'collect'

export interface RegistrationGuardOptions {
  readonly mode?: OverlayMode | undefined
  readonly limits?: EnforceOptions['limits']
  readonly onRepair?: EnforceOptions['onRepair']
  readonly onVerdict?: ((verdict: RegistrationVerdict) => void) | undefined
  /**
   * Called once per tool whose declared schema ajv cannot compile; the tool is registered and its arguments are
   * checked by DSH's own validator instead (see `dsh-fallback.ts`). Default: the notice is written to stderr.
   */
  readonly onValidatorProblem?: ((problem: ValidatorProblem) => void) | undefined
  /**
   * The model route: the tool is registered with its wire schema for this route, and everything that sees a call's
   * arguments gets them read back into the declared shape. Without it, only the root contract applies.
   */
  readonly profile?: ProfileId | undefined
  /**
   * Without `profile`: each accepted tool's contract, so the route a session uses can be applied where DSH assembles
   * the request (see `route-projection.ts`). Arguments are then read back for `argumentProfile()`.
   */
  readonly routed?: RoutedBinding | undefined
  /** With a profile: reject calls whose arguments do not match with `ToolArgsError`, for every tool. Default false. */
  readonly validateArguments?: boolean | undefined
}

/** How tools are bound when the route is found per session instead of configured. */
export interface RoutedBinding {
  /** Called once per accepted tool with the definition handed to DSH and the contract compiled for it. */
  readonly remember: (definition: object, contract: ToolContract) => void
  /** The route whose arguments a call to `exec.agent` carries; `undefined` leaves arguments as sent. */
  readonly argumentProfile: (exec: unknown) => ProfileId | undefined
}

/** The outcome for one definition: the one to register (the same object when nothing changes), or the refusal. */
export type Judgement<D> =
  | { readonly kind: 'accepted'; readonly definition: D }
  | { readonly kind: 'refused'; readonly error: JsonSchemaError }

function toolNameOf(definition: RegisteredTool | undefined): string {
  try {
    const name = definition?.name
    return typeof name === 'string' ? name : `<unnamed: ${typeof name}>`
  } catch {
    return '<unreadable name>'
  }
}

/**
 * Checks one definition against the root contract and binds it for the route: the single decision both the
 * registration guard and the sweep of tools registered earlier (`read-guard.ts`) make.
 */
export function judgeTool<D extends RegisteredTool>(
  definition: D,
  registration: Registration,
  options: RegistrationGuardOptions,
): Judgement<D> {
  const identity: ToolIdentity = { tool: toolNameOf(definition), source: registration.source }
  const contractOptions: ContractOptions = {
    mode: options.mode === 'repair' ? 'repair' : 'throw',
    limits: options.limits,
    onRepair: options.onRepair,
    fallbackValidator: DSH_FALLBACK_VALIDATOR,
    onValidatorProblem:
      options.onValidatorProblem ?? ((problem) => stderrOnly(validatorProblemNotice(problem))),
  }
  let contract: ToolContract
  try {
    contract = compileToolContract(readParameters(definition, identity), identity, contractOptions)
  } catch (error) {
    if (!(error instanceof JsonSchemaError)) throw error
    options.onVerdict?.({ identity, error })
    return { kind: 'refused', error }
  }
  options.onVerdict?.({ identity, error: null })
  return { kind: 'accepted', definition: accepted(definition, contract, options) }
}

const unregisterNothing = (): void => {}

/**
 * Wraps a `register` implementation (DSH `ToolRuntime.register`, `packages/core/tools/src/index.ts`) so every tool's
 * `parameters` pass the root contract first. `this` is passed through, so cordis still attributes the registration
 * to the calling plugin and disposes it with that plugin. `onAccepted` sees every definition handed to DSH.
 */
export function guardRegister<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  options: RegistrationGuardOptions = {},
  onAccepted?: (definition: D) => void,
): RegisterMethod<D> {
  return function register(this: unknown, given: D): () => void {
    const registration = registrationOf(this)
    // Tool packages' definition transforms run first, so the contract and projection see the transformed tool.
    return withDefinitionTransforms(toolsOfReceiver(this), given, registration, (definition) => {
      // DSH's own first check keeps its precedence: a definition it rejects for its `output` gets DSH's error.
      if (!declaresCanonicalOutput(definition)) return original.call(this, definition)
      const judgement = judgeTool(definition, registration, options)
      if (judgement.kind === 'refused') {
        // Without a mode the guard throws: a caller that set up no notice channel must not lose the error silently.
        if ((options.mode ?? 'throw') === 'throw') throw judgement.error
        return unregisterNothing
      }
      onAccepted?.(judgement.definition)
      return original.call(this, judgement.definition)
    })
  }
}

/** The condition of DSH's first check in `ToolRuntime.register()` (packages/core/tools/src/index.ts). */
export function declaresCanonicalOutput(definition: unknown): boolean {
  try {
    const output = (definition as { output?: unknown } | null)?.output as
      | { render?: unknown; presentationMeta?: unknown }
      | undefined
    return (
      typeof output === 'object' &&
      output !== null &&
      typeof output.render === 'function' &&
      (output.presentationMeta === undefined || typeof output.presentationMeta === 'function')
    )
  } catch {
    return false
  }
}

function accepted<D extends RegisteredTool>(
  definition: D,
  contract: ToolContract,
  options: RegistrationGuardOptions,
): D {
  const validateArguments = options.validateArguments ?? false
  if (options.profile !== undefined) {
    return bindContract(definition, { contract, profile: () => options.profile, validateArguments })
  }
  const declared =
    contract.declared === definition.parameters
      ? definition
      : { ...definition, parameters: contract.declared }
  if (options.routed === undefined) return declared
  const bound = bindContract(declared, {
    contract,
    profile: options.routed.argumentProfile,
    validateArguments,
    parameters: 'declared',
  })
  options.routed.remember(bound, contract)
  return bound
}

function readParameters(definition: RegisteredTool | undefined, identity: ToolIdentity): unknown {
  // A definition that is not an object has no parameters to read; the contract reports them missing.
  if (typeof definition !== 'object' || definition === null) return undefined
  try {
    return definition.parameters
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'a non-error value'
    throw new JsonSchemaError(identity, [
      {
        pointer: '',
        rule: 'unreadable',
        message: `reading \`parameters\` threw: ${reason}`,
        hint: 'declare parameters as a plain data property',
      },
    ])
  }
}
