import type { Context } from '@deepseek-ai/cordis'
import { registrationOf, toolsOfReceiver } from './definition-transforms.ts'
import { installOwnMethod } from './own-method.ts'
import type { RegisteredTool, RegisterMethod } from './registration.ts'

// Symbol.for, not module state: the recorder and the overlay may be two module instances of this package.
const SOURCES = Symbol.for('dsh-harden.overlay.sources')
const RECORDING = Symbol.for('dsh-harden.overlay.recording')

type Slots = Record<symbol, unknown>

function sourcesOf(tools: object): WeakMap<object, string | undefined> | undefined {
  return (tools as Slots)[SOURCES] as WeakMap<object, string | undefined> | undefined
}

function createdSourcesOf(tools: object): WeakMap<object, string | undefined> {
  let sources = sourcesOf(tools)
  if (sources === undefined) {
    sources = new WeakMap()
    Object.defineProperty(tools, SOURCES, { value: sources })
  }
  return sources
}

/** The plugin that registered `definition`, if the recorder saw the registration. */
export function recordedSource(tools: object, definition: RegisteredTool): string | undefined {
  return recordedRegistration(tools, definition)?.source
}

/**
 * Who registered `definition`, or `undefined` when nothing recorded it (as opposed to `{ source: undefined }`: a
 * registration from the root context).
 */
export function recordedRegistration(
  tools: object,
  definition: RegisteredTool,
): { readonly source: string | undefined } | undefined {
  if (typeof definition !== 'object' || definition === null) return undefined
  const sources = sourcesOf(tools)
  return sources?.has(definition) ? { source: sources.get(definition) } : undefined
}

/** Notes who registered `definition`, unless already noted: the recorder does, and so does the transform stage. */
export function recordSource(tools: object, definition: RegisteredTool, source: string | undefined): void {
  if (typeof definition !== 'object' || definition === null) return
  const sources = createdSourcesOf(tools)
  if (!sources.has(definition)) sources.set(definition, source)
}

/**
 * Records who registers each definition on `tools` (one recorder per instance); returns the uninstaller. What was
 * recorded stays readable after it: the overlay may start after the recorder row is gone.
 */
function installRecorder(tools: { register: RegisterMethod }): () => void {
  const slots = tools as unknown as Slots
  if (slots[RECORDING] === true) return () => {}
  Object.defineProperty(tools, RECORDING, { value: true, configurable: true })
  const uninstall = installOwnMethod<'register', RegisterMethod>(
    tools,
    'register',
    (previous) =>
      function register(this: unknown, definition) {
        recordSource(tools, definition, registrationOf(this).source)
        return previous.call(this, definition)
      },
  )
  return () => {
    uninstall()
    delete slots[RECORDING]
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
