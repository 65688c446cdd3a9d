import { installOwnMethod } from './own-method.ts'
import type { RegisteredTool } from './registration.ts'

/**
 * The parts of rc.8 `ToolRuntime` (`packages/core/tools/src/index.ts`) the read guard relies on. Both are private in
 * DSH's TypeScript and plain properties at runtime: `view(scope)` is the one resolver behind `get()`, `schemas()`,
 * the prompt's tool provider (`wireSchemas`) and execution lookup; `layers` (`ScopedLayers` from `dsh-scope`) holds
 * the global and per-agent `NamedEntries` tables.
 */
interface ToolView {
  readonly visible: ReadonlyMap<string, RegisteredTool>
}

interface ToolTable {
  entries(): Iterable<[string, RegisteredTool]>
}

interface RegistryInternals {
  view: (this: unknown, scope?: unknown) => ToolView
  readonly layers: {
    readonly global: { readonly tools: ToolTable }
    readonly scoped: ReadonlyMap<unknown, { readonly tools: ToolTable }>
  }
}

/** What a tool looks like to every reader: the definition to show (itself, or its repaired form), or `undefined`. */
export type ToolFilter = (definition: RegisteredTool) => RegisteredTool | undefined

// DSH builds this one itself for Code Mode, with parameters that depend on the code runtime: never ours to judge.
const RUN_CODE_NAME = 'run_code'

function internalsOf(tools: object): RegistryInternals | undefined {
  const candidate = tools as Partial<RegistryInternals>
  const layers = candidate.layers
  if (typeof candidate.view !== 'function' || typeof layers?.global?.tools?.entries !== 'function')
    return undefined
  if (!(layers.scoped instanceof Map)) return undefined
  return candidate as RegistryInternals
}

/** Every definition in the registry right now: the global layer, then each agent scope's own layer. */
export function registeredTools(tools: object): RegisteredTool[] | undefined {
  const internals = internalsOf(tools)
  if (internals === undefined) return undefined
  const found: RegisteredTool[] = []
  for (const [name, definition] of internals.layers.global.tools.entries())
    if (name !== RUN_CODE_NAME) found.push(definition)
  for (const layer of internals.layers.scoped.values())
    for (const [name, definition] of layer.tools.entries()) if (name !== RUN_CODE_NAME) found.push(definition)
  return found
}

/**
 * Installs `filter` on the registry's view as an own `view` of the live instance, so every reader — the request DSH
 * sends, `get()`, `schemas()`, execution — sees only what the filter admits, however and whenever a tool got in.
 * Returns the uninstaller, or `undefined` when this DSH's registry does not have the rc.8 shape.
 */
export function installReadGuard(tools: object, filter: ToolFilter): (() => void) | undefined {
  const internals = internalsOf(tools)
  if (internals === undefined) return undefined
  return installOwnMethod<'view', RegistryInternals['view']>(
    internals,
    'view',
    (previous) =>
      function view(this: unknown, scope?: unknown): ToolView {
        const result = previous.call(this, scope)
        let visible: Map<string, RegisteredTool> | undefined
        for (const [name, definition] of result.visible) {
          if (name === RUN_CODE_NAME) continue
          const shown = filter(definition)
          if (shown === definition) continue
          visible ??= new Map(result.visible)
          if (shown === undefined) visible.delete(name)
          else visible.set(name, shown)
        }
        return visible === undefined ? result : { ...result, visible }
      },
  )
}
