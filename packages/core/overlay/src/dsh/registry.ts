import type { Context } from '@deepseek-ai/cordis'
import { firstShapeNotice } from './instance-state.ts'
import { installForwardingMethod, installOwnMethod } from './own-method.ts'
import type { RegisteredTool, RegisterMethod } from './tool-definition.ts'

/**
 * The one module that touches DSH's private tool registry. Everything here is private in DSH's TypeScript and a plain
 * property at runtime, with the same shape in `dsh-v0.1.0-rc.8` and `dsh-v0.1.1-rc.2` (`packages/core/tools` and
 * `packages/core/scope` are unchanged between them):
 *
 * - `ToolRuntime.view(scope)` (`packages/core/tools/src/index.ts`): the one resolver behind `get()`, `schemas()`, the
 *   prompt's tool provider (`wireSchemas`), Code Mode's `sdkSchemas` and execution lookup. It returns
 *   `{ visible, knownNames, restrictableNames }`.
 * - `ToolRuntime.layers`: a `ScopedLayers` (`packages/core/scope/src/store.ts`) with the global `ToolLayer`, one per
 *   agent scope in `scoped`, `chainLayers(scope)` (the layers of a scope's parent chain, which `view` reads), and
 *   `onChange`, the callback through which DSH emits `tools/change` after every register, unregister, `restrict()`
 *   and `presentAs()`: every change of what `view` returns, except a scope re-parented by dsh-scope's `rebind`, which
 *   changes `chainLayers` instead.
 * - `ToolLayer.tools`: a `NamedEntries` whose `data` map holds the registered definitions. `NamedEntries.insert`
 *   hands the registering plugin an undo that deletes by name, so an entry replaced here still goes away with it.
 *   `data` is swapped for a fresh map when it empties, so it is read anew on every use, never kept.
 * - cordis' `Symbol.for('cordis.original')`: the service instance behind the proxy `ctx.tools` returns.
 */
interface NamedTable {
  readonly data: Map<string, RegisteredTool>
}

interface ToolLayer {
  readonly tools: NamedTable
}

interface Layers {
  readonly global: ToolLayer
  readonly scoped: ReadonlyMap<unknown, ToolLayer>
  onChange: () => void
  chainLayers(scope: unknown): readonly ToolLayer[]
}

/** What DSH's `view(scope)` returns. */
export interface ToolView {
  readonly visible: ReadonlyMap<string, RegisteredTool>
  readonly knownNames: ReadonlySet<string>
  readonly restrictableNames: ReadonlySet<string>
}

export type ViewMethod = (this: unknown, scope?: unknown) => ToolView

interface Internals {
  view: ViewMethod
  readonly layers: Layers
}

/**
 * DSH's reserved Code Mode transport (`RUN_CODE_NAME` in `packages/core/tools/src/code-mode.ts`): the view adds it for
 * code-mode scopes, with parameters that depend on the code runtime; it never enters a table.
 */
export const RUN_CODE_NAME = 'run_code'

const ORIGINAL = Symbol.for('cordis.original')

type Slots = Record<symbol, unknown>

interface ToolsInstance {
  register: RegisterMethod
}

/** The service instance behind cordis' proxy, where an own method shadows the prototype's for every caller. */
export function rawTools(ctx: Context): ToolsInstance {
  const proxy = (ctx as unknown as { tools: Slots & ToolsInstance }).tools
  return (proxy[ORIGINAL] as ToolsInstance | undefined) ?? proxy
}

/** The instance behind a `register` receiver (a cordis proxy or the runtime itself). */
export function toolsOfReceiver(receiver: unknown): object | undefined {
  if (typeof receiver !== 'object' || receiver === null) return undefined
  try {
    return ((receiver as Slots)[ORIGINAL] as object | undefined) ?? receiver
  } catch {
    return undefined
  }
}

/** The registry of one live `ToolRuntime`, as the overlay reads and changes it. */
export interface DshRegistry {
  /** Every registered definition: the global layer's, then each agent scope's own. */
  definitions(): RegisteredTool[]
  /**
   * Replaces each registered definition with `rewrite(definition)` where that differs, in every layer, then emits
   * DSH's own `tools/change` through the layers' change callback, as a register or unregister does.
   */
  rewrite(rewrite: (definition: RegisteredTool) => RegisteredTool): void
  /** Installs `wrap(previous)` as the instance's own `view`; returns the order-safe uninstaller. */
  wrapView(wrap: (previous: ViewMethod) => ViewMethod): () => void
  /** One scope's visible definitions by name, through the instance's `view` as installed now. */
  visible(scope: unknown): ReadonlyMap<string, RegisteredTool>
  /** The layers `view(scope)` reads besides the global one: equal arrays, equal inputs (with no change between). */
  chain(scope: unknown): readonly object[]
  /** Calls `listener` on each of DSH's own change signals, before DSH emits `tools/change`; returns the remover. */
  watchChanges(listener: () => void): () => void
}

function isTable(table: unknown): table is NamedTable {
  return (table as Partial<NamedTable> | undefined)?.data instanceof Map
}

/** The one shape probe: the rc.8 `view` method and `layers` with named tables and a change callback. */
function internalsOf(tools: object): Internals | undefined {
  const candidate = tools as Partial<Internals>
  const layers = candidate.layers as Partial<Layers> | undefined
  if (typeof candidate.view !== 'function' || typeof layers !== 'object' || layers === null) return undefined
  if (!isTable(layers.global?.tools) || !(layers.scoped instanceof Map)) return undefined
  if (typeof layers.onChange !== 'function' || typeof layers.chainLayers !== 'function') return undefined
  return candidate as Internals
}

function tablesOf(layers: Layers): NamedTable[] {
  const tables = [layers.global.tools]
  for (const layer of layers.scoped.values()) if (isTable(layer?.tools)) tables.push(layer.tools)
  return tables
}

/** The registry of `tools`, or `undefined` when this DSH's registry is not the rc.8 shape. */
export function dshRegistryOf(tools: object): DshRegistry | undefined {
  const internals = internalsOf(tools)
  if (internals === undefined) return undefined
  const { layers } = internals
  return {
    definitions() {
      const found: RegisteredTool[] = []
      for (const table of tablesOf(layers))
        for (const definition of table.data.values()) found.push(definition)
      return found
    },
    rewrite(rewrite) {
      let changed = false
      for (const table of tablesOf(layers)) {
        // A copy: the rewrite may run plugin code (a transform), which must not see the map change under it.
        for (const [name, definition] of [...table.data]) {
          const next = rewrite(definition)
          if (next === definition || table.data.get(name) !== definition) continue
          table.data.set(name, next)
          changed = true
        }
      }
      if (changed) layers.onChange()
    },
    wrapView(wrap) {
      return installOwnMethod<'view', ViewMethod>(internals, 'view', wrap)
    },
    visible(scope) {
      return internals.view.call(internals, scope).visible
    },
    chain(scope) {
      return layers.chainLayers(scope)
    },
    watchChanges(listener) {
      // Without a forwarding hop: DSH calls it inside every register, where cordis captures stack traces.
      return installForwardingMethod<'onChange', () => void>(
        layers,
        'onChange',
        (previous, stillInstalled) =>
          function onChange(this: unknown) {
            if (stillInstalled()) listener()
            previous.call(this)
          },
      )
    },
  }
}

/**
 * Says once per tools instance, on `notify`, that the registry is not the rc.8 shape and what the overlay cannot do
 * because of it; every caller that needs the registry calls this when `dshRegistryOf` finds none.
 */
export function unsupportedShapeNotice(tools: object, notify: (line: string) => void): void {
  if (!firstShapeNotice(tools)) return
  notify(
    'dsh-harden: this DSH tool registry is not the rc.8 shape (ToolRuntime.view and layers with named tables), so ' +
      'tools registered before dsh-harden or a definition transform started are not checked or changed; later ' +
      'registrations are. Pin @deepseek-ai/dsh-tools to 0.1.0-rc.8 or 0.1.1-rc.2, or report this.',
  )
}
