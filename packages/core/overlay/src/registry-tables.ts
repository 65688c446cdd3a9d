import type { RegisteredTool } from './registration.ts'

/**
 * The rc.8 registry's tables, for changing a tool that is already registered. `ToolRuntime.layers` (`ScopedLayers`
 * from `dsh-scope`, packages/core/scope/src/store.ts) holds one `ToolLayer` for the global registry and one per agent
 * scope; each layer's `tools` is a `NamedEntries`, whose `data` map is private in DSH's TypeScript and a plain
 * property at runtime. `NamedEntries.insert` hands the registering plugin an undo that deletes by name, so an entry
 * replaced here still goes away with the plugin that registered it.
 */
interface NamedTable {
  readonly data: Map<string, RegisteredTool>
}

interface Layers {
  readonly global: { readonly tools: NamedTable }
  readonly scoped: ReadonlyMap<unknown, { readonly tools: NamedTable }>
  /** `ToolRuntime`'s own change callback: emits `tools/change`, as a register or unregister does. */
  readonly onChange?: () => void
}

function layersOf(tools: object): { layers: Layers; tables: NamedTable[] } | undefined {
  const layers = (tools as { layers?: Partial<Layers> }).layers
  if (layers?.global === undefined || !(layers.scoped instanceof Map)) return undefined
  const tables = [layers.global.tools, ...[...layers.scoped.values()].map((layer) => layer.tools)]
  if (!tables.every((table) => table?.data instanceof Map)) return undefined
  return { layers: layers as Layers, tables }
}

/**
 * Replaces each registered definition with `rewrite(definition)` where that differs, in the global layer and every
 * agent scope's layer. Returns `false` (and changes nothing) when this DSH's registry does not have the rc.8 shape.
 */
export function rewriteRegistered(
  tools: object,
  rewrite: (definition: RegisteredTool) => RegisteredTool,
): boolean {
  const found = layersOf(tools)
  if (found === undefined) return false
  let changed = false
  for (const table of found.tables) {
    // A copy: the rewrite may run plugin code (a transform), which must not see the map change under it.
    for (const [name, definition] of [...table.data]) {
      const next = rewrite(definition)
      if (next === definition || table.data.get(name) !== definition) continue
      table.data.set(name, next)
      changed = true
    }
  }
  if (changed && typeof found.layers.onChange === 'function') found.layers.onChange()
  return true
}
