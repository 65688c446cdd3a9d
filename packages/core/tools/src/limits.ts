/** Bounds on what a check will read, so hostile or runaway input yields a violation instead of a hang. */
export interface SizeLimits {
  /** Deepest nesting of objects and arrays, counting the root as depth 1. */
  readonly maxDepth: number
  /** Most JSON values (objects, arrays and scalars) read in one schema. */
  readonly maxNodes: number
  /** Most characters across all strings and keys of one schema. */
  readonly maxChars: number
}

// Generous for real tool schemas (the largest MCP schemas we have seen are a few hundred nodes, depth < 20); 256 JSON
// levels admit arguments nested 64 objects deep (each level is a schema plus its `properties` map, and more).
export const DEFAULT_LIMITS: SizeLimits = { maxDepth: 256, maxNodes: 20_000, maxChars: 1_000_000 }
