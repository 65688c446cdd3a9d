import type { Context } from '@deepseek-ai/cordis'
import { describeTool, type RepairReport } from '@dsh-harden/tools'
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
}

const MODES: readonly OverlayMode[] = ['throw', 'repair', 'collect']

function readMode(config: unknown): OverlayMode {
  const mode = (config as OverlayConfig | undefined)?.mode ?? 'throw'
  if (!MODES.includes(mode)) {
    throw new TypeError(`dsh-harden overlay: mode ${JSON.stringify(mode)} is not one of ${MODES.join(', ')}`)
  }
  return mode
}

const ORIGINAL = Symbol.for('cordis.original')

interface ToolsInstance {
  register: RegisterMethod
}

/** The service instance behind cordis' proxy, where an own `register` shadows the prototype's for every caller. */
function rawTools(ctx: Context): ToolsInstance {
  const proxy = (ctx as unknown as { tools: Record<symbol, unknown> & ToolsInstance }).tools
  return (proxy[ORIGINAL] as ToolsInstance | undefined) ?? proxy
}

/**
 * Installs the guard as an own `register` on the live `tools` instance and restores the previous state on dispose.
 * Tools registered before this runs are not checked, so load the overlay before tool plugins.
 */
export function installOnToolsService(ctx: Context, options: RegistrationGuardOptions): () => void {
  const tools = rawTools(ctx)
  const hadOwn = Object.hasOwn(tools, 'register')
  const previous = tools.register
  tools.register = guardRegister(previous, options)
  return () => {
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
    const mode = readMode(config)
    ctx.effect(
      () => installOnToolsService(ctx, { mode, onRepair: (report) => warnRepair(ctx, report) }),
      'dsh-harden: guard tools.register()',
    )
  },
}
