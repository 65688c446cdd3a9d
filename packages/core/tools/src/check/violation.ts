import { showPointer } from '../json/json-pointer.ts'

/**
 * One thing wrong with a schema: what (rule, message), where (JSON pointer into the checked value) and how to fix it
 * (hint). Rules are stable identifiers that tools and tests can match on; messages and hints are for people.
 */
export interface SchemaViolation {
  readonly pointer: string
  readonly rule: SchemaRule
  readonly message: string
  readonly hint: string
  /**
   * On a refusal by the root contract: whether `mode: repair` would serve the tool (every violation of the refusal has
   * exactly one meaning and the hint says what would be sent). Absent on violations built elsewhere.
   */
  readonly repairable?: boolean | undefined
}

export type SchemaRule =
  | 'parameters-missing'
  | 'parameters-json-text'
  | 'root-not-object'
  | 'root-empty'
  | 'bare-property-table'
  | 'root-type-missing'
  | 'root-unrecognized'
  | 'root-type-array'
  | 'root-type-not-object'
  | 'root-union'
  | 'root-ref'
  | 'root-keyword'
  | 'properties-not-map'
  | 'property-not-schema'
  | 'required-not-array'
  | 'required-in-property'
  | 'required-duplicate'
  | 'required-undeclared'
  | 'not-lossless-json'
  | 'cycle'
  | 'too-deep'
  | 'too-large'
  | 'unreadable'
  | 'keyword-type'
  | 'type-unknown'
  | 'enum-empty'
  | 'enum-duplicate'
  | 'pattern-invalid'
  | 'ref-unresolved'
  | 'ref-remote'
  | 'schema-dialect-unknown'
  | 'profile-keyword'
  | 'profile-shape'
  | 'projection-failed'
  // The route needs references inlined, and inlining them would pass the wire's byte budget.
  | 'wire-too-large'

/** The one-line form used in `violations[]` and in error messages. */
export function formatViolation(violation: SchemaViolation): string {
  const where = showPointer(violation.pointer)
  return `${where}: ${violation.message} (fix: ${violation.hint})`
}
