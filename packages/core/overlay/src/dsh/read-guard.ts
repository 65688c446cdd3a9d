import { type DshRegistry, RUN_CODE_NAME, type ToolView } from './registry.ts'
import type { RegisteredTool } from './tool-definition.ts'

/** What a tool looks like to every reader: the definition to show (itself, or its repaired form), or `undefined`. */
export type ToolFilter = (definition: RegisteredTool) => RegisteredTool | undefined

/** One scope's filtered view, valid while DSH signals no change and the scope's layer chain is the same. */
interface CachedView {
  readonly changes: number
  readonly chain: readonly object[]
  readonly view: ToolView
}

function sameLayers(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false
  return true
}

/** `view` with each definition as `filter` shows it; the same object when the filter changes nothing. */
function filtered(view: ToolView, filter: ToolFilter): ToolView {
  let visible: Map<string, RegisteredTool> | undefined
  for (const [name, definition] of view.visible) {
    if (name === RUN_CODE_NAME) continue
    const shown = filter(definition)
    if (shown === definition) continue
    visible ??= new Map(view.visible)
    if (shown === undefined) visible.delete(name)
    else visible.set(name, shown)
  }
  return visible === undefined ? view : { ...view, visible }
}

/**
 * Installs `filter` on the registry's view, so every reader — the request DSH sends, `get()`, `schemas()`, Code Mode's
 * SDK, execution — sees only what the filter admits, however and whenever a tool got in. Only `visible` changes: a
 * withheld tool's name stays in `knownNames` and `restrictableNames`, as a registered tool's does, so a `toolOrder` or
 * a subagent's `toolFilter` naming it works whichever of the overlay and its plugin started first.
 *
 * Each scope's filtered view is built once and kept until DSH's own change signal (the layers' `onChange`, behind
 * `tools/change`) or a change of the scope's layer chain (a re-parented scope): the filter's answer for a definition
 * never changes once judged, so nothing else can make a kept view stale. An assembly then reads one view however many
 * times DSH and the route projection ask, and a call's `get()` reads the kept one. Returns the uninstaller.
 */
export function installReadGuard(registry: DshRegistry, filter: ToolFilter): () => void {
  let changes = 0
  const unwatch = registry.watchChanges(() => {
    changes++
  })
  const kept = new WeakMap<object, CachedView>()
  let keptGlobal: CachedView | undefined
  const unwrap = registry.wrapView(
    (previous) =>
      function view(this: unknown, scope?: unknown): ToolView {
        const chain = registry.chain(scope)
        const hit = typeof scope === 'object' && scope !== null ? kept.get(scope) : keptGlobal
        if (hit !== undefined && hit.changes === changes && sameLayers(hit.chain, chain)) return hit.view
        const entry = { changes, chain, view: filtered(previous.call(this, scope), filter) }
        if (typeof scope === 'object' && scope !== null) kept.set(scope, entry)
        else if (scope === undefined) keptGlobal = entry
        return entry.view
      },
  )
  return () => {
    unwrap()
    unwatch()
  }
}
