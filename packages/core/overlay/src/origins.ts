import type { DefinitionTransform } from './definition-transforms.ts'
import { stateOf } from './instance-state.ts'
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

function originsOf(tools: object): WeakMap<object, Origin> {
  const state = stateOf(tools)
  state.origins ??= new WeakMap()
  return state.origins
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

/** The origin of the `register` call in progress, set by the outermost wrapper for the ones below it. */
export function pendingOrigin(tools: object): Origin | undefined {
  return stateOf(tools).pending
}

/**
 * Makes `origin` the pending one for the `register` call in progress; `closePending` ends it. A pair rather than a
 * callback, so the call adds no stack frames: cordis and DSH capture a stack trace several times per registration.
 */
export function openPending(tools: object, origin: Origin): void {
  stateOf(tools).pending = origin
}

/** Ends what `openPending` began: `register` is synchronous, so this spans exactly that one call. */
export function closePending(tools: object): void {
  stateOf(tools).pending = undefined
}
