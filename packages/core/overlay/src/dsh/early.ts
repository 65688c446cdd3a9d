import type { Context } from '@deepseek-ai/cordis'
import {
  pendingOrigin,
  recordedOrigin,
  recordOrigin,
  startRecording,
  stopRecording,
} from './instance-state.ts'
import { installOwnMethod } from './own-method.ts'
import { registrationOf } from './registrant.ts'
import { toolsOfReceiver } from './registry.ts'
import type { RegisteredTool, RegisterMethod } from './tool-definition.ts'

/** The plugin that registered `definition`, if the recorder (or another `register` wrapper) saw the registration. */
export function recordedSource(tools: object, definition: RegisteredTool): string | undefined {
  return recordedOrigin(tools, definition)?.registration.source
}

/**
 * Records who registers each definition on `tools` (one recorder per instance); returns the uninstaller. What was
 * recorded stays readable after it: the overlay may start after the recorder row is gone.
 */
function installRecorder(tools: { register: RegisterMethod }): () => void {
  if (!startRecording(tools)) return () => {}
  const uninstall = installOwnMethod<'register', RegisterMethod>(
    tools,
    'register',
    (previous) =>
      function register(this: unknown, definition) {
        // Below another wrapper, the registration in progress is that wrapper's: the plugin's own definition.
        const origin = pendingOrigin(tools) ?? {
          registered: definition,
          registration: registrationOf(this),
          changedBy: [],
        }
        recordOrigin(tools, definition, origin)
        return previous.call(this, definition)
      },
  )
  return () => {
    uninstall()
    stopRecording(tools)
  }
}

/**
 * A light row that lets the overlay name the plugin of a tool registered before the overlay started. It imports
 * nothing heavy, so its module is ready long before the overlay's (which loads ajv), and it needs no service: it
 * installs its recorder on `tools` the moment the service is provided — cordis emits `internal/service`
 * synchronously in `provide()`, before any plugin that injects `tools` can apply (their `apply` waits a microtask).
 */
export const SourceRecorder = {
  name: 'dsh-harden-overlay-early',
  apply(ctx: Context): void {
    const uninstalls = new Set<() => void>()
    const attach = () => {
      // `get`, not `ctx.tools`: this row injects nothing, so it can start before the service exists.
      const tools = toolsOfReceiver(ctx.get('tools'))
      if (tools !== undefined) uninstalls.add(installRecorder(tools as { register: RegisterMethod }))
    }
    ctx.effect(() => {
      attach()
      const stop = ctx.on('internal/service', (name: string) => {
        if (name === 'tools') attach()
      })
      return () => {
        stop()
        for (const uninstall of uninstalls) uninstall()
      }
    }, 'dsh-harden: record who registers each tool')
  },
}

export default SourceRecorder
