import {
  type ContractOptions,
  compileToolContract,
  type EnforceOptions,
  JsonSchemaError,
  type ProfileId,
  type RepairReport,
  type RootContractMode,
  type ToolContract,
  type ToolIdentity,
  type ValidatorProblem,
} from '@dsh-harden/tools'
import { bindContract } from './contract-definition.ts'
import { beginRegistration, endRegistration } from './definition-transforms.ts'
import { DSH_FALLBACK_VALIDATOR } from './dsh-fallback.ts'
import { toolsOfReceiver } from './dsh-registry.ts'
import { stderrOnly, validatorProblemNotice } from './notices.ts'
import { recordOrigin } from './origins.ts'
import type { StillInstalled } from './own-method.ts'
import type { Registration } from './registrant.ts'

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
   * checked by DSH's own validator instead (see `dsh-fallback.ts`). Default: the notice is written to stderr. A bare
   * guard compiles each validator at register, so this is called there; the `HardenOverlay` plugin compiles it at the
   * tool's first validated call instead, keeping `register()` at stock cost.
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
  /** With a profile: told, at each read of the wire schema, why it goes out as declared (`Projection.notProjected`). */
  readonly onNotProjected?: ((reason: string) => void) | undefined
}

/**
 * How tools are bound when the route is applied where DSH assembles each request (the overlay plugin, configured
 * route or found one): the definition handed to DSH is the registered one itself unless a repair changed it, so
 * DSH's identity checks hold, and calls are read back at DSH's call door (`declared-calls.ts`).
 */
export interface RoutedBinding {
  /** Called once per accepted tool with the definition handed to DSH and the contract compiled for it. */
  readonly remember: (definition: object, contract: ToolContract) => void
}

/** The parts of the options that decide a judgement; the callbacks only report it. */
export type JudgeOptions = Pick<
  RegistrationGuardOptions,
  'mode' | 'limits' | 'profile' | 'routed' | 'validateArguments' | 'onNotProjected'
>

/**
 * The outcome for one definition: the one to hand DSH (the same object when nothing changes) with what was repaired,
 * or the refusal.
 */
export type Judgement<D> =
  | {
      readonly kind: 'accepted'
      readonly identity: ToolIdentity
      readonly definition: D
      readonly contract: ToolContract
      readonly report?: RepairReport | undefined
    }
  | { readonly kind: 'refused'; readonly identity: ToolIdentity; readonly error: JsonSchemaError }

/** The tool's name as verdicts and notices give it, whatever `name` holds. */
export function toolNameOf(definition: RegisteredTool | undefined): string {
  try {
    const name = definition?.name
    return typeof name === 'string' ? name : `<unnamed: ${typeof name}>`
  } catch {
    return '<unreadable name>'
  }
}

/**
 * What judging reads besides the definition, built once per caller (a guard, each path of a gate) rather than once
 * per tool: the options, and the contract options made from them.
 */
export interface Judge {
  readonly options: JudgeOptions
  /** Shared by every contract this judge builds, except in `repair` mode, where each tool reports its own repairs. */
  readonly contractOptions: ContractOptions
}

/** A `Judge` for `options`, reporting a schema ajv cannot compile to `onValidatorProblem` (at its first compile). */
export function createJudge(
  options: JudgeOptions,
  onValidatorProblem: (problem: ValidatorProblem) => void,
): Judge {
  const contractOptions: ContractOptions = {
    mode: options.mode === 'repair' ? 'repair' : 'throw',
    limits: options.limits,
    fallbackValidator: DSH_FALLBACK_VALIDATOR,
    onValidatorProblem,
  }
  return { options, contractOptions }
}

/**
 * Checks one definition against the root contract and binds it for the route: the single decision every path into
 * the registry makes (a registration, the sweep of tools registered earlier, a tool rebuilt for a late transform).
 * It reports nothing itself; the caller words and records the judgement. The validator is compiled when it is first
 * needed (the first validated call), so a schema ajv cannot compile reaches `onValidatorProblem` then, not here.
 */
export function judgeTool<D extends RegisteredTool>(
  definition: D,
  registration: Registration,
  judge: Judge,
): Judgement<D> {
  const identity: ToolIdentity = { tool: toolNameOf(definition), source: registration.source }
  let report: RepairReport | undefined
  const contractOptions: ContractOptions =
    judge.options.mode === 'repair'
      ? {
          ...judge.contractOptions,
          onRepair: (repaired) => {
            report = repaired
          },
        }
      : judge.contractOptions
  let contract: ToolContract
  try {
    contract = compileToolContract(readParameters(definition, identity), identity, contractOptions)
  } catch (error) {
    if (!(error instanceof JsonSchemaError)) throw error
    return { kind: 'refused', identity, error }
  }
  return {
    kind: 'accepted',
    identity,
    definition: accepted(definition, contract, judge.options, report !== undefined),
    contract,
    report,
  }
}

/** Hands a judgement to the callbacks of `options`, as a bare guard reports it. */
function reportJudgement(judgement: Judgement<unknown>, options: RegistrationGuardOptions): void {
  if (judgement.kind === 'refused') {
    options.onVerdict?.({ identity: judgement.identity, error: judgement.error })
    return
  }
  if (judgement.report !== undefined) options.onRepair?.(judgement.report)
  options.onVerdict?.({ identity: judgement.identity, error: null })
}

/** What one registration hands DSH: the definition to insert, an error to throw, or nothing at all. */
export type Admitted<D> =
  | { readonly insert: D }
  | { readonly refuse: JsonSchemaError }
  | { readonly skip: true }

const unregisterNothing = (): void => {}

/** Where an `admittingRegister` wrapper is installed, when it is one instance's own method. */
export interface InstalledRegister {
  /** The tools instance it is installed on. */
  readonly on?: object | undefined
  /** Set when it is installed with `installForwardingMethod`: once false, the wrapper only forwards. */
  readonly stillInstalled?: StillInstalled | undefined
}

/**
 * Wraps a `register` implementation (DSH `ToolRuntime.register`, `packages/core/tools/src/index.ts`) so that `admit`
 * decides what each registration hands it, after the tool packages' definition transforms. `this` is passed through,
 * so cordis still attributes the registration to the calling plugin and disposes it with that plugin. `installed`:
 * where it is installed, if it is one instance's own method.
 */
export function admittingRegister<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  admit: (definition: D, registration: Registration) => Admitted<D>,
  installed: InstalledRegister = {},
): RegisterMethod<D> {
  const { on, stillInstalled } = installed
  return function register(this: unknown, given: D): () => void {
    if (stillInstalled !== undefined && !stillInstalled()) return original.call(this, given)
    // The instance it is installed on, when known: reading it from `this` goes through cordis' proxy.
    const tools = on ?? toolsOfReceiver(this)
    const pass = beginRegistration(tools, given, this)
    try {
      const { definition, origin } = pass
      // DSH's own first check keeps its precedence: a definition it rejects for its `output` gets DSH's error.
      if (!declaresCanonicalOutput(definition)) return original.call(this, definition)
      const admitted = admit(definition, origin.registration)
      if ('refuse' in admitted) throw admitted.refuse
      if ('skip' in admitted) return unregisterNothing
      // Noted so a transform added later rebuilds this entry from what its plugin registered.
      if (tools !== undefined) recordOrigin(tools, admitted.insert, origin)
      return original.call(this, admitted.insert)
    } finally {
      endRegistration(tools, pass)
    }
  }
}

/**
 * Wraps a `register` implementation so every tool's `parameters` pass the root contract first; a refused tool is
 * thrown (the default mode, `throw`) or not registered. `onAccepted` sees every definition handed to DSH.
 */
export function guardRegister<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  options: RegistrationGuardOptions = {},
  onAccepted?: (definition: D) => void,
): RegisterMethod<D> {
  const judge = createJudge(
    options,
    options.onValidatorProblem ??
      ((problem: ValidatorProblem) => stderrOnly(validatorProblemNotice(problem))),
  )
  return admittingRegister(original, (definition, registration) => {
    const judgement = judgeTool(definition, registration, judge)
    reportJudgement(judgement, options)
    if (judgement.kind === 'refused') {
      // Without a mode the guard throws: a caller that set up no notice channel must not lose the error silently.
      return (options.mode ?? 'throw') === 'throw' ? { refuse: judgement.error } : { skip: true }
    }
    // A bare guard serves lint and test suites, which want every verdict at register: compile the validator now, so a
    // schema ajv cannot compile reaches `onValidatorProblem` here rather than at a first call that may never come.
    judgement.contract.compileValidator()
    onAccepted?.(judgement.definition)
    return { insert: judgement.definition }
  })
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

/**
 * The definition to hand DSH for an accepted tool. Without a repair it is the registered object itself: DSH's own
 * packages compare definitions by identity (`ctx.tools.get(name) === skillTool` in tool-skill's reminder,
 * `acceptedDirectCallValue` in tool-fs-search's spill), and DSH reads its `parameters` as stock does. A repaired tool
 * is a copy carrying the repaired schema. Only a bare guard with a `profile` (the prototype installer for test suites,
 * which has no assembly to project in) binds a copy whose `parameters` read as the wire schema.
 */
function accepted<D extends RegisteredTool>(
  definition: D,
  contract: ToolContract,
  options: JudgeOptions,
  repaired: boolean,
): D {
  if (options.profile !== undefined) {
    return bindContract(definition, {
      contract,
      profile: () => options.profile,
      validateArguments: options.validateArguments ?? false,
      onNotProjected: options.onNotProjected,
    })
  }
  const handed = repaired ? { ...definition, parameters: contract.declared } : definition
  options.routed?.remember(handed, contract)
  return handed
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
