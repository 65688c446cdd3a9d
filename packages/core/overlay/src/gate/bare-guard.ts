import type { Context } from '@deepseek-ai/cordis'
import type {
  EnforceOptions,
  JsonSchemaError,
  ProfileId,
  ToolIdentity,
  ValidatorProblem,
} from '@dsh-harden/tools'
import { stderrOnly } from '../dsh/notice-sink.ts'
import { installOwnMethod } from '../dsh/own-method.ts'
import { rawTools } from '../dsh/registry.ts'
import type { RegisteredTool, RegisterMethod } from '../dsh/tool-definition.ts'
import { bindContract } from './bound-definition.ts'
import { configuredRoute, type RouteOption } from './configured-route.ts'
import { createJudge, type Judgement, judgeTool, type OverlayMode } from './judge.ts'
import { refusalNotice, repairNotice, validatorProblemNotice } from './notices.ts'
import { registerDoor } from './register-door.ts'

/** What the overlay decided about one registration: the verdicts `dsh-harden lint` prints. */
export interface RegistrationVerdict {
  readonly identity: ToolIdentity
  /** `null` when the tool passed the root contract (possibly after a repair). */
  readonly error: JsonSchemaError | null
}

export interface RegistrationGuardOptions extends RouteOption {
  /**
   * Default `throw`: a caller that set up no notice channel must not lose an error. `refuse` and `repair` leave a
   * refused tool unregistered and say so on stderr; `collect` leaves it unregistered and says nothing: each verdict
   * goes to `onVerdict`, which it requires.
   */
  readonly mode?: OverlayMode | undefined
  readonly limits?: EnforceOptions['limits']
  readonly onRepair?: EnforceOptions['onRepair']
  readonly onVerdict?: ((verdict: RegistrationVerdict) => void) | undefined
  /**
   * Called once per tool whose declared schema ajv cannot compile; the tool is registered and its arguments are
   * checked by DSH's own validator instead (see `dsh/fallback-validator.ts`). Default: the notice on stderr. A bare
   * guard compiles each validator at register, so this is called there; the `HardenOverlay` plugin compiles it at the
   * tool's first validated call instead, keeping `register()` at stock cost.
   */
  readonly onValidatorProblem?: ((problem: ValidatorProblem) => void) | undefined
  /** With a route: reject calls whose arguments do not match with `ToolArgsError`, for every tool. Default false. */
  readonly validateArguments?: boolean | undefined
  /** With a route: told, at each read of the wire schema, why it goes out as declared (`Projection.notProjected`). */
  readonly onNotProjected?: ((reason: string) => void) | undefined
}

function optionError(message: string): Error {
  return new Error(`dsh-harden registration guard: ${message}`)
}

/** Hands a judgement to the callbacks of `options`, and to stderr unless the mode is `collect`. */
function reportJudgement(judgement: Judgement<unknown>, options: RegistrationGuardOptions): void {
  const quiet = options.mode === 'collect'
  if (judgement.kind === 'refused') {
    options.onVerdict?.({ identity: judgement.identity, error: judgement.error })
    if (!quiet && options.mode !== undefined && options.mode !== 'throw')
      stderrOnly(refusalNotice(judgement.error))
    return
  }
  if (judgement.report !== undefined) {
    options.onRepair?.(judgement.report)
    if (!quiet) stderrOnly(repairNotice(judgement.report))
  }
  options.onVerdict?.({ identity: judgement.identity, error: null })
}

/**
 * Wraps a `register` implementation so every tool's `parameters` pass the root contract first; a refused tool is
 * thrown (the default mode, `throw`) or not registered. With a `route`, the tool is registered as a copy whose
 * `parameters` read as its wire schema and whose argument consumers read normalized arguments (for test suites, which
 * have no assembly to project in). `onAccepted` sees every definition handed to DSH.
 */
export function guardRegister<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  options: RegistrationGuardOptions = {},
  onAccepted?: (definition: D) => void,
): RegisterMethod<D> {
  if (options.mode === 'collect' && options.onVerdict === undefined)
    throw optionError(
      'mode "collect" hands each verdict to onVerdict, and none was given; pass onVerdict or use mode "refuse"',
    )
  const route: ProfileId | undefined = configuredRoute(options, stderrOnly, optionError)
  const judge = createJudge(
    options,
    options.onValidatorProblem ??
      ((problem: ValidatorProblem) => stderrOnly(validatorProblemNotice(problem))),
  )
  return registerDoor(original, (given, registration) => {
    const judgement = judgeTool(given, registration, judge)
    reportJudgement(judgement, options)
    if (judgement.kind === 'refused')
      return (options.mode ?? 'throw') === 'throw' ? { refuse: judgement.error } : { skip: true }
    // Lint and test suites want every verdict at register: compile the validator now, so a schema ajv cannot compile
    // reaches `onValidatorProblem` here rather than at a first call that may never come.
    judgement.contract.compileValidator()
    const definition =
      route === undefined
        ? judgement.definition
        : bindContract(judgement.definition, {
            contract: judgement.contract,
            profile: () => route,
            validateArguments: options.validateArguments ?? false,
            onNotProjected: options.onNotProjected,
          })
    onAccepted?.(definition)
    return { insert: definition }
  })
}

/**
 * Installs the guard as an own `register` on the live `tools` instance and restores the previous state on dispose.
 * It sees registrations made after it; `HardenOverlay` also sweeps the ones made before (see the README).
 */
export function installOnToolsService(
  ctx: Context,
  options: RegistrationGuardOptions,
  onAccepted?: (definition: RegisteredTool) => void,
): () => void {
  // A wrapper installed later (a tool package's definition-transform stage) keeps calling this one, so it must
  // turn into a pass-through rather than unhook itself.
  return installOwnMethod<'register', RegisterMethod>(rawTools(ctx), 'register', (previous) =>
    guardRegister(previous, options, onAccepted),
  )
}
