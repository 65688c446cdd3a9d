import type { Context } from '@deepseek-ai/cordis'
import { describeTool, PROFILE_IDS, type ProfileId, type RepairReport } from '@dsh-harden/tools'
import { rawTools } from './definition-transforms.ts'
import {
  guardRegister,
  type OverlayMode,
  type RegisterMethod,
  type RegistrationGuardOptions,
} from './registration.ts'

/** Configuration of the overlay plugin, as written in a DSH profile. */
export interface OverlayConfig {
  /** `throw` (default) fails a bad plugin at load; `repair` fixes unambiguous mistakes with a warning. */
  readonly mode?: OverlayMode | undefined
  /** The model route whose wire schemas to send, with arguments read back for it. Unset: root contract only. */
  readonly profile?: ProfileId | undefined
  /** With `profile`: reject calls whose arguments do not match the declared schema, for every tool. */
  readonly validateArguments?: boolean | undefined
}

interface OverlaySettings {
  readonly mode: OverlayMode
  readonly profile: ProfileId | undefined
  readonly validateArguments: boolean
}

const MODES: readonly OverlayMode[] = ['throw', 'repair', 'collect']

function oneOf<T extends string>(key: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T | undefined
  throw new TypeError(
    `dsh-harden overlay: ${key} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`,
  )
}

function readConfig(config: unknown): OverlaySettings {
  const given = (config ?? {}) as OverlayConfig
  const validateArguments = given.validateArguments ?? false
  if (typeof validateArguments !== 'boolean') {
    throw new TypeError(
      `dsh-harden overlay: validateArguments must be true or false, got ${JSON.stringify(validateArguments)}`,
    )
  }
  const mode = oneOf('mode', given.mode, MODES) ?? 'throw'
  return { mode, profile: oneOf('profile', given.profile, PROFILE_IDS), validateArguments }
}

interface ToolsInstance {
  register: RegisterMethod
}

/**
 * Installs the guard as an own `register` on the live `tools` instance and restores the previous state on dispose.
 * Tools registered before this runs are not checked, so load the overlay before tool plugins.
 */
export function installOnToolsService(ctx: Context, options: RegistrationGuardOptions): () => void {
  const tools = rawTools(ctx)
  const hadOwn = Object.hasOwn(tools, 'register')
  const previous = tools.register
  const guarded = guardRegister(previous, options)
  let active = true
  const installed: RegisterMethod = function register(this: unknown, definition) {
    return active ? guarded.call(this, definition) : previous.call(this, definition)
  }
  tools.register = installed
  return () => {
    active = false
    // Unwind only when still on top: a wrapper installed later (a tool package's definition-transform stage) keeps
    // calling this one, which is now a pass-through.
    if (tools.register !== installed) return
    if (hadOwn) tools.register = previous
    else delete (tools as Partial<ToolsInstance>).register
  }
}

function warnRepair(ctx: Context, report: RepairReport): void {
  const what = report.repaired.map((v) => `${v.pointer || '(root)'} ${v.rule}`).join(', ')
  ctx
    .logger('dsh-harden')
    .warn(
      `${describeTool(report.identity)}: repaired its parameters (${what}); fix the plugin so it declares them correctly`,
    )
}

/** The cordis plugin: `ctx.plugin(HardenOverlay, { mode })`. */
export const HardenOverlay = {
  name: 'dsh-harden-overlay',
  inject: ['tools'],
  apply(ctx: Context, config?: OverlayConfig): void {
    const settings = readConfig(config)
    ctx.effect(
      () => installOnToolsService(ctx, { ...settings, onRepair: (report) => warnRepair(ctx, report) }),
      'dsh-harden: guard tools.register()',
    )
  },
}
