import type { Context } from '@deepseek-ai/cordis'
import { type JsonSchemaError, PROFILE_IDS, type ProfileId, type RepairReport } from '@dsh-harden/tools'
import { rawTools } from './definition-transforms.ts'
import { recordedSource } from './early.ts'
import {
  type NoticeSink,
  refusalNotice,
  repairNotice,
  stderrAndLogger,
  validatorProblemNotice,
} from './notices.ts'
import { installOwnMethod } from './own-method.ts'
import { installReadGuard, registeredTools } from './read-guard.ts'
import {
  declaresCanonicalOutput,
  guardRegister,
  judgeTool,
  type OverlayMode,
  type RegisteredTool,
  type RegisterMethod,
  type RegistrationGuardOptions,
} from './registration.ts'
import { RouteProjection } from './route-projection.ts'

/** Configuration of the overlay plugin, as written in a DSH profile. */
export interface OverlayConfig {
  /** `refuse` (default), `repair` or `throw`: what happens to a tool that fails the root contract. */
  readonly mode?: OverlayMode | undefined
  /**
   * The model route whose wire schemas to send, with arguments read back for it. Unset: the route each request
   * actually uses, detected per agent (see `route-projection.ts`).
   */
  readonly profile?: ProfileId | undefined
  /** Reject calls whose arguments do not match the declared schema, for every tool. */
  readonly validateArguments?: boolean | undefined
}

interface OverlaySettings {
  readonly mode: OverlayMode
  readonly profile: ProfileId | undefined
  readonly validateArguments: boolean
}

const MODES: readonly OverlayMode[] = ['refuse', 'repair', 'throw', 'collect']

function configError(message: string): Error {
  return new Error(`dsh-harden overlay config: ${message}; fix the dsh-harden row in cordis.patch.yml`)
}

function oneOf<T extends string>(key: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T | undefined
  throw configError(`${key} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`)
}

function readConfig(config: unknown): OverlaySettings {
  const given = (config ?? {}) as OverlayConfig
  const validateArguments = given.validateArguments ?? false
  if (typeof validateArguments !== 'boolean') {
    throw configError(`validateArguments must be true or false, got ${JSON.stringify(validateArguments)}`)
  }
  const mode = oneOf('mode', given.mode, MODES) ?? 'refuse'
  return { mode, profile: oneOf('profile', given.profile, PROFILE_IDS), validateArguments }
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

/**
 * The read side: every definition any reader sees — the request DSH sends, `get()`, execution — is one this overlay
 * judged, including tools registered before it started. Each definition object is judged once; ones that came
 * through the guarded `register` are already judged.
 */
class ToolGate {
  private readonly shown = new WeakMap<object, RegisteredTool | null>()
  private readonly refusals: JsonSchemaError[] = []
  private readonly options: RegistrationGuardOptions
  private readonly notify: NoticeSink
  private readonly tools: object

  constructor(tools: object, options: RegistrationGuardOptions, notify: NoticeSink) {
    this.tools = tools
    // Verdicts found here are reported by `judgeEarly` itself, worded for a tool that was already registered.
    this.options = {
      ...options,
      onVerdict: undefined,
      onRepair: (report) => notify(repairNotice(report, true)),
      onValidatorProblem: (problem) => notify(validatorProblemNotice(problem, true)),
    }
    this.notify = notify
  }

  readonly admitted = (definition: RegisteredTool): void => {
    this.shown.set(definition, definition)
  }

  readonly filter = (definition: RegisteredTool): RegisteredTool | undefined => {
    if (typeof definition !== 'object' || definition === null) return definition
    const known = this.shown.get(definition)
    if (known !== undefined) return known ?? undefined
    const shown = this.judgeEarly(definition)
    this.shown.set(definition, shown ?? null)
    if (shown !== undefined && shown !== definition) this.shown.set(shown, shown)
    return shown
  }

  /** Judges every tool already registered; in `throw` mode, fails the overlay (and so the profile) on a bad one. */
  sweep(tools: object): void {
    for (const definition of registeredTools(tools) ?? []) this.filter(definition)
    const [first, ...more] = this.refusals
    if (this.options.mode !== 'throw' || first === undefined) return
    if (more.length === 0) throw first
    throw new AggregateError(this.refusals, this.refusals.map((error) => error.message).join('\n'))
  }

  private judgeEarly(definition: RegisteredTool): RegisteredTool | undefined {
    if (!declaresCanonicalOutput(definition)) return definition
    const judgement = judgeTool(definition, { source: recordedSource(this.tools, definition) }, this.options)
    if (judgement.kind === 'accepted') return judgement.definition
    this.refusals.push(judgement.error)
    // In throw mode the sweep fails the overlay with these errors; a "withdrawn" notice would not be true.
    if (this.options.mode !== 'throw') this.notify(refusalNotice(judgement.error, true))
    return undefined
  }
}

/** The cordis plugin: a DSH profile row (`name: "@dsh-harden/overlay"`) or `ctx.plugin(HardenOverlay, config)`. */
export const HardenOverlay = {
  name: 'dsh-harden-overlay',
  inject: ['tools'],
  apply(ctx: Context, config?: OverlayConfig): void {
    const settings = readConfig(config)
    const notify = stderrAndLogger(ctx)
    const routes = settings.profile === undefined ? new RouteProjection() : undefined
    const options: RegistrationGuardOptions = {
      ...settings,
      routed: routes,
      onRepair: (report: RepairReport) => notify(repairNotice(report)),
      onValidatorProblem: (problem) => notify(validatorProblemNotice(problem)),
      onVerdict: ({ error }) => {
        if (error !== null && settings.mode !== 'throw') notify(refusalNotice(error))
      },
    }
    const tools = rawTools(ctx)
    const gate = new ToolGate(tools, options, notify)
    ctx.effect(() => installOnToolsService(ctx, options, gate.admitted), 'dsh-harden: guard tools.register()')
    ctx.effect(() => {
      const uninstall = installReadGuard(tools, gate.filter)
      if (uninstall === undefined) {
        notify(
          'dsh-harden: this DSH tool registry is not the rc.8 shape (no view/layers); tools registered before ' +
            'dsh-harden started are not checked. Pin @deepseek-ai/dsh-tools to 0.1.0-rc.8 or report this.',
        )
        return () => {}
      }
      try {
        gate.sweep(tools)
      } catch (error) {
        uninstall()
        throw error
      }
      return uninstall
    }, 'dsh-harden: guard what tools readers see')
    if (routes !== undefined) {
      const lookup = (name: string, scope: unknown) =>
        (tools as unknown as { get(name: string, scope: unknown): object | undefined }).get(name, scope)
      ctx.effect(() => routes.install(ctx, lookup), 'dsh-harden: project for the route in use')
    }
  },
}
