/** Bounds on what a check will read, so hostile or runaway input yields a violation instead of a hang. */
export interface SizeLimits {
  /** Deepest nesting of objects and arrays, counting the root as depth 1. */
  readonly maxDepth: number
  /** Most JSON values (objects, arrays and scalars) read in one schema. */
  readonly maxNodes: number
  /** Most characters across all strings and keys of one schema. */
  readonly maxChars: number
}

/**
 * Every walk over a schema or an argument value is one pass on an explicit stack, so depth costs nothing beyond its
 * nodes: these bound total work, not the call stack. They admit every schema DSH's own `packages/core/tools` suite
 * registers — its deepest is 5,000 nested `oneOf` levels, which is 10,004 JSON levels and about 20,000 values — with
 * room to spare. Real tool schemas are a few hundred values, fewer than 20 levels deep.
 */
export const DEFAULT_LIMITS: SizeLimits = { maxDepth: 20_000, maxNodes: 100_000, maxChars: 4_000_000 }
