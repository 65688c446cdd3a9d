/**
 * Counts the work a contract does, for the work-counting fuzz harness (`tests/work.property.test.ts`): tests pass one
 * in through `ContractOptions.meter` or `ProjectionOptions.meter` and assert that work grows linearly with input size,
 * never measuring time. Production callers pass none; every count is then a skipped optional call.
 */
export type WorkKind =
  /** A value read by the root-contract check (the snapshot walk) or a schema node whose keywords it checks. */
  | 'check-node'
  /** A schema node entered by projection (inlined `$ref` targets count again, within the node budget). */
  | 'projection-node'
  /** A schema node visited by a helper of projection (e.g. whether a declared schema admits null). */
  | 'projection-helper'
  /** An argument value visited while reading arguments back into the declared shape. */
  | 'value-node'
  /** A declared-schema node visited to learn what a slot admits or what lies below it. */
  | 'shape-node'
  /** A call into a compiled validator. */
  | 'validator-call'
  /** A `$ref` target actually evaluated by the validator (memoized ones do not count again). */
  | 'ref-evaluation'
  /** A schema node sized before the validator is compiled (the compile budget's walk). */
  | 'compile-node'
  /** A character of the code ajv generates for a validator (its compile stages are linear in it). */
  | 'compile-code'

export interface WorkMeter {
  count(kind: WorkKind, amount?: number): void
}
