import type { DefinitionTransform } from './definition-transforms.ts'
import type { Registration } from './registrant.ts'
import type { RegisteredTool } from './registration.ts'

/**
 * How an entry of DSH's registry came to be: the definition its plugin handed `register` (before any transform or
 * contract binding), who registered it, and which definition transforms changed it. A late transform rebuilds the entry
 * from `registered`, so a tool carries one contract at any time, never one bound over another.
 */
export interface Origin {
  readonly registered: RegisteredTool
  readonly registration: Registration
  readonly changedBy: readonly DefinitionTransform[]
}

// Symbol.for, not module state: the recorder row, the overlay and tool packages may load different module instances.
const ORIGINS = Symbol.for('dsh-harden.overlay.origins')
const PENDING = Symbol.for('dsh-harden.overlay.pending-origin')

type Slots = Record<symbol, unknown>

function originsOf(tools: object): WeakMap<object, Origin> {
  let origins = (tools as Slots)[ORIGINS] as WeakMap<object, Origin> | undefined
  if (origins === undefined) {
    origins = new WeakMap()
    Object.defineProperty(tools, ORIGINS, { value: origins, configurable: true })
  }
  return origins
}

/**
 * Notes where `entry` came from, unless already noted: every `register` wrapper notes what it passes on, and the
 * outermost one, which saw the plugin's own definition, runs first.
 */
export function recordOrigin(tools: object, entry: RegisteredTool, origin: Origin): void {
  if (typeof entry !== 'object' || entry === null) return
  const origins = originsOf(tools)
  if (!origins.has(entry)) origins.set(entry, origin)
}

/** Where `entry` came from, if a wrapper or the recorder row saw it register. */
export function recordedOrigin(tools: object, entry: RegisteredTool): Origin | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  return originsOf(tools).get(entry)
}

/** Where `entry` came from; an entry nothing saw register is its own registered definition, by an unknown plugin. */
export function originOf(tools: object, entry: RegisteredTool): Origin {
  return (
    recordedOrigin(tools, entry) ?? {
      registered: entry,
      registration: { source: undefined, unrecorded: true },
      changedBy: [],
    }
  )
}

/**
 * One mutable cell per tools instance, defined once: `register` is hot, and adding and deleting a property per call
 * would turn the service instance DSH reads on every call into a slow dictionary-mode object.
 */
function pendingCell(tools: object): { current: Origin | undefined } {
  let cell = (tools as Slots)[PENDING] as { current: Origin | undefined } | undefined
  if (cell === undefined) {
    cell = { current: undefined }
    Object.defineProperty(tools, PENDING, { value: cell, configurable: true })
  }
  return cell
}

/** The origin of the `register` call in progress, set by the outermost wrapper for the ones below it. */
export function pendingOrigin(tools: object): Origin | undefined {
  return ((tools as Slots)[PENDING] as { current: Origin | undefined } | undefined)?.current
}

/** Runs `call` with `origin` as the pending one; `register` is synchronous, so this spans exactly that one call. */
export function whilePending<R>(tools: object, origin: Origin, call: () => R): R {
  const cell = pendingCell(tools)
  const outer = cell.current
  cell.current = origin
  try {
    return call()
  } finally {
    cell.current = outer
  }
}
