import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay, type OverlayConfig } from '@dsh-harden/overlay'

export interface RuntimeOptions {
  readonly hardened: boolean
  /** The overlay's configuration (e.g. `{ route: 'deepseek' }`); only with `hardened`. */
  readonly overlay?: OverlayConfig | undefined
}

/** The smallest DSH composition with a live `ctx.tools`: what a tool plugin registers into. */
export async function createToolRuntime(options: RuntimeOptions): Promise<Context> {
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  // Loaded after ToolRuntime and before any registration, as a DSH profile would load it.
  if (options.hardened) await app.plugin(HardenOverlay, options.overlay ?? {})
  return app
}
