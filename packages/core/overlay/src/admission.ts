import type { Origin } from './origins.ts'
import type { RegisteredTool } from './registration.ts'

/**
 * What the overlay makes of a definition that enters DSH's table other than through `register`: a tool rebuilt because
 * a definition transform was added or removed after it registered. Returns the entry to put in the table (bound to its
 * contract, or the definition itself when it is withheld from readers).
 */
export type Admission = (definition: RegisteredTool, origin: Origin) => RegisteredTool

// Symbol.for, not module state: a tool package may load another module instance of the overlay than the overlay row.
const ADMISSION = Symbol.for('dsh-harden.overlay.admission')

type Slots = Record<symbol, unknown>

/** Sets the admission of a tools instance while the overlay runs on it; returns the remover. */
export function installAdmission(tools: object, admit: Admission): () => void {
  Object.defineProperty(tools, ADMISSION, { value: admit, configurable: true })
  return () => {
    if ((tools as Slots)[ADMISSION] === admit) delete (tools as Slots)[ADMISSION]
  }
}

/** The admission the overlay installed on `tools`, if it runs there. */
export function admissionOf(tools: object): Admission | undefined {
  return (tools as Slots)[ADMISSION] as Admission | undefined
}
