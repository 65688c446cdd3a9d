import { stateOf } from './instance-state.ts'
import type { Origin } from './origins.ts'
import type { RegisteredTool } from './registration.ts'

/**
 * What the overlay makes of a definition that enters DSH's table other than through `register`: a tool rebuilt because
 * a definition transform was added or removed after it registered. Returns the entry to put in the table (bound to its
 * contract, or the definition itself when it is withheld from readers).
 */
export type Admission = (definition: RegisteredTool, origin: Origin) => RegisteredTool

/** Sets the admission of a tools instance while the overlay runs on it; returns the remover. */
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
