import type { Registration } from './registrant.ts'
import type { DefinitionTransform, RegisteredTool } from './tool-definition.ts'

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

/**
 * What the overlay makes of a definition that enters DSH's table other than through `register`: a tool rebuilt because
 * a definition transform was added or removed after it registered. Returns the entry to put in the table.
 */
export type Admission = (definition: RegisteredTool, origin: Origin) => RegisteredTool

/** The shared `register` stage of one tools instance: how many transforms use it, and how to take it out. */
export interface TransformStage {
  count: number
  readonly uninstall: () => void
}

/**
 * What the overlay keeps per DSH tools instance (the raw `ToolRuntime` behind cordis' proxy), in one record held
 * beside the instance rather than on it. Properties added to DSH's service would change its shape, which slows DSH's
 * own reads of it and throws away optimized code whenever an instance dies, and deleting them would leave it a slow
 * dictionary-mode object. Only this module writes the record, through the operations below.
 */
class InstanceState {
  origins: WeakMap<object, Origin> | undefined = undefined
  pending: Origin | undefined = undefined
  ledger: object | undefined = undefined
  transforms: Set<DefinitionTransform> | undefined = undefined
  stage: TransformStage | undefined = undefined
  admission: Admission | undefined = undefined
  recording = false
  shapeNoticed = false

  /**
   * V8 keeps an object shape only while some object has it; one record kept for the process keeps this class's
   * shape alive when the last tools instance is collected, so the code that reads it stays optimized.
   */
  static readonly keptShape = new InstanceState()
}

// Symbol.for on globalThis, not module state: the overlay row, the early row, the Web UI row and a tool package may
// load different module instances of this package, and all of them must find the same record.
const STATES = Symbol.for('dsh-harden.overlay.instance-states')

function stateOf(tools: object): InstanceState {
  const slots = globalThis as unknown as Record<symbol, WeakMap<object, InstanceState> | undefined>
  let all = slots[STATES]
  if (all === undefined) {
    all = new WeakMap()
    Object.defineProperty(globalThis, STATES, { value: all })
  }
  let state = all.get(tools)
  if (state === undefined) {
    state = new InstanceState()
    all.set(tools, state)
  }
  return state
}

/**
 * Notes where `entry` came from, unless already noted: every `register` wrapper notes what it passes on, and the
 * outermost one, which saw the plugin's own definition, runs first.
 */
export function recordOrigin(tools: object, entry: RegisteredTool, origin: Origin): void {
  if (typeof entry !== 'object' || entry === null) return
  const state = stateOf(tools)
  state.origins ??= new WeakMap()
  if (!state.origins.has(entry)) state.origins.set(entry, origin)
}

/** Where `entry` came from, if a wrapper or the recorder row saw it register. */
export function recordedOrigin(tools: object, entry: RegisteredTool): Origin | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  return stateOf(tools).origins?.get(entry)
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

/** The verdict ledger of `tools`, made by `create` on first use (`verdicts.ts` is its one caller). */
export function ledgerOf<L extends object>(tools: object, create: () => L): L {
  const state = stateOf(tools)
  state.ledger ??= create()
  return state.ledger as L
}

/** The definition transforms added for `tools`, in the order they were added; `undefined` before the first. */
export function transformsOf(tools: object): ReadonlySet<DefinitionTransform> | undefined {
  return stateOf(tools).transforms
}

export function addTransform(tools: object, transform: DefinitionTransform): void {
  const state = stateOf(tools)
  state.transforms ??= new Set()
  state.transforms.add(transform)
}

export function removeTransform(tools: object, transform: DefinitionTransform): void {
  stateOf(tools).transforms?.delete(transform)
}

/** The `register` stage that applies the transforms when no overlay does, while one is installed. */
export function transformStageOf(tools: object): TransformStage | undefined {
  return stateOf(tools).stage
}

export function setTransformStage(tools: object, stage: TransformStage | undefined): void {
  stateOf(tools).stage = stage
}

/** Sets how the running overlay admits a rebuilt entry of `tools`; returns the remover. */
export function installAdmission(tools: object, admit: Admission): () => void {
  const state = stateOf(tools)
  state.admission = admit
  return () => {
    if (state.admission === admit) state.admission = undefined
  }
}

/** The admission the overlay installed on `tools`, if it runs there. */
export function admissionOf(tools: object): Admission | undefined {
  return stateOf(tools).admission
}

/** Marks `tools` as watched by the recorder row; false when a recorder already watches it. */
export function startRecording(tools: object): boolean {
  const state = stateOf(tools)
  if (state.recording) return false
  state.recording = true
  return true
}

export function stopRecording(tools: object): void {
  stateOf(tools).recording = false
}

/** True the first time it is asked for `tools`: the unsupported-shape notice is given once per instance. */
export function firstShapeNotice(tools: object): boolean {
  const state = stateOf(tools)
  if (state.shapeNoticed) return false
  state.shapeNoticed = true
  return true
}
