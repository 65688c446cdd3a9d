import type { Admission } from './admission.ts'
import type { DefinitionTransform, TransformStage } from './definition-transforms.ts'
import type { Origin } from './origins.ts'
import type { VerdictLedger } from './verdicts.ts'

/**
 * What the overlay keeps per DSH tools instance (the raw `ToolRuntime` behind cordis' proxy), in one record held
 * beside the instance rather than on it. Properties added to DSH's service would change its shape, which slows DSH's
 * own reads of it and throws away optimized code whenever an instance dies, and deleting them would leave it a slow
 * dictionary-mode object. Each field is owned by the module named beside it.
 */
export class InstanceState {
  /** `origins.ts`: where each entry of the registry came from. */
  origins: WeakMap<object, Origin> | undefined = undefined
  /** `origins.ts`: the origin of the `register` call in progress. */
  pending: Origin | undefined = undefined
  /** `verdicts.ts`: the verdicts every observer reads. */
  ledger: VerdictLedger | undefined = undefined
  /** `definition-transforms.ts`: the transforms added, and the `register` stage that applies them. */
  transforms: Set<DefinitionTransform> | undefined = undefined
  stage: TransformStage | undefined = undefined
  /** `admission.ts`: how the running overlay admits a rebuilt entry. */
  admission: Admission | undefined = undefined
  /** `early.ts`: whether the recorder row watches this instance's registrations. */
  recording = false
  /** `dsh-registry.ts`: whether the unsupported-shape notice was given. */
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

function states(): WeakMap<object, InstanceState> {
  const slots = globalThis as unknown as Record<symbol, WeakMap<object, InstanceState> | undefined>
  let found = slots[STATES]
  if (found === undefined) {
    found = new WeakMap()
    Object.defineProperty(globalThis, STATES, { value: found })
  }
  return found
}

/** The record of `tools`, created on first use. */
export function stateOf(tools: object): InstanceState {
  const all = states()
  let state = all.get(tools)
  if (state === undefined) {
    state = new InstanceState()
    all.set(tools, state)
  }
  return state
}
