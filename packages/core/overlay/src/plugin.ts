import type { Context } from '@deepseek-ai/cordis'
import { PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'
import { installAdmission } from './admission.ts'
import { installDeclaredCalls } from './declared-calls.ts'
import { dshRegistryOf, rawTools, unsupportedShapeNotice } from './dsh-registry.ts'
import { notProjectedOnce, stderrAndLogger, withheldOnRouteNotice } from './notices.ts'
import { installForwardingMethod, installOwnMethod } from './own-method.ts'
import { installReadGuard } from './read-guard.ts'
import {
  admittingRegister,
  guardRegister,
  type OverlayMode,
  type RegisteredTool,
  type RegisterMethod,
  type RegistrationGuardOptions,
} from './registration.ts'
import { RouteProjection, type ToolsInScope } from './route-projection.ts'
import { ToolGate } from './tool-gate.ts'
import { verdictLedgerOf } from './verdicts.ts'

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

// `collect` is for callers that take each verdict through `onVerdict` (`dsh-harden lint`); a profile row has no such
// callback, so there it would only be `refuse` under another name.
const MODES: readonly OverlayMode[] = ['refuse', 'repair', 'throw']

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

/** The cordis plugin: a DSH profile row (`name: "@dsh-harden/overlay"`) or `ctx.plugin(HardenOverlay, config)`. */
type GetMethod = (this: unknown, name: string, scope?: unknown) => unknown

export const HardenOverlay = {
  name: 'dsh-harden-overlay',
  inject: ['tools'],
  apply(ctx: Context, config?: OverlayConfig): void {
    const settings = readConfig(config)
    const notify = stderrAndLogger(ctx)
    const notProjected = notProjectedOnce(notify)
    // One wire path: a configured profile and a found route are applied by the same projection, renames and reading.
    const routes = new RouteProjection(notProjected, settings.profile, (tool, profile, reason) =>
      notify(withheldOnRouteNotice(tool, profile, reason)),
    )
    const tools = rawTools(ctx)
    const registry = dshRegistryOf(tools)
    if (registry === undefined) unsupportedShapeNotice(tools, notify)
    const gate = new ToolGate(
      tools,
      { mode: settings.mode, routed: routes },
      notify,
      verdictLedgerOf(tools),
      registry !== undefined,
    )
    ctx.effect(
      () =>
        // Installed without a forwarding hop: the guard sits on the stack of every registration.
        installForwardingMethod<'register', RegisterMethod>(tools, 'register', (previous, stillInstalled) =>
          admittingRegister(previous, gate.atRegister, { on: tools, stillInstalled }),
        ),
      'dsh-harden: guard tools.register()',
    )
    if (registry !== undefined) {
      ctx.effect(() => {
        const uninstall = installReadGuard(registry, gate.filter)
        try {
          gate.sweep(registry)
        } catch (error) {
          uninstall()
          throw error
        }
        const uninstallAdmission = installAdmission(tools, gate.atRebuild)
        return () => {
          uninstallAdmission()
          uninstall()
        }
      }, 'dsh-harden: guard what tools readers see')
    }
    const resolve: ToolsInScope =
      registry === undefined
        ? (scope) => (name) =>
            (tools as unknown as { get(name: string, scope: unknown): object | undefined }).get(name, scope)
        : // One view per assembly, however many tools it carries.
          (scope) => registry.visible(scope)
    ctx.effect(() => routes.install(ctx, resolve), 'dsh-harden: project for the route in use')
    ctx.effect(
      () =>
        // Readers that look a tool up by the name the model called (the Web UI's presenters, from the transcript's
        // `tool/call`) find it under the name it was registered with.
        installOwnMethod<'get', GetMethod>(
          tools as unknown as { get: GetMethod },
          'get',
          (previous) =>
            function (this: unknown, name: string, scope?: unknown) {
              const found = previous.call(this, name, scope)
              if (found !== undefined || typeof name !== 'string') return found
              const registered = routes.registeredName(name, scope)
              return registered === undefined ? found : previous.call(this, registered, scope)
            },
        ),
      'dsh-harden: resolve the tool names a route renamed',
    )
    ctx.effect(() => {
      const uninstall = installDeclaredCalls(ctx, tools, {
        declaredName: routes.registeredName,
        contractOf: routes.contractOf,
        argumentProfile: routes.argumentProfile,
        validateArguments: settings.validateArguments,
      })
      if (uninstall !== undefined) return uninstall
      notify(
        'dsh-harden: this DSH tool registry has no ToolRuntime.prepareExecution/executionMode (the rc.8 shape), so ' +
          'calls reach tools as the model sent them: renamed tools are not found and encoded arguments are not ' +
          'read back. Pin @deepseek-ai/dsh-tools to 0.1.0-rc.8 or 0.1.1-rc.2, or report this.',
      )
      return () => {}
    }, "dsh-harden: calls in the declared tool's terms")
  },
}
