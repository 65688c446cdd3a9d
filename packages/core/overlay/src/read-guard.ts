import { type DshRegistry, RUN_CODE_NAME, type ToolView } from './dsh-registry.ts'
import type { RegisteredTool } from './registration.ts'

/** What a tool looks like to every reader: the definition to show (itself, or its repaired form), or `undefined`. */
export type ToolFilter = (definition: RegisteredTool) => RegisteredTool | undefined

/**
 * Installs `filter` on the registry's view, so every reader — the request DSH sends, `get()`, `schemas()`, Code Mode's
 * SDK, execution — sees only what the filter admits, however and whenever a tool got in. Only `visible` changes: a
 * withheld tool's name stays in `knownNames` and `restrictableNames`, as a registered tool's does, so a `toolOrder` or
 * a subagent's `toolFilter` naming it works whichever of the overlay and its plugin started first. One pass over the
 * view DSH built, one `WeakMap` lookup per definition; the map is copied only when something is hidden or replaced.
 * Returns the uninstaller.
 */
export function installReadGuard(registry: DshRegistry, filter: ToolFilter): () => void {
  return registry.wrapView(
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
