import { type JsonObject, pollutedPrototypeKeys } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { acceptedAsDeclared } from './as-declared.ts'
import { InlineBudgetExceeded, withheldNotice } from './byte-budget.ts'
import { sameJson } from './canonical.ts'
import { profileRules } from './profiles.ts'
import {
  attachDefinitions,
  createWalk,
  IDENTITY,
  type Projected,
  projectSchema,
  projectUnusedDefinitions,
} from './project.ts'
import type { ProfileId, Projection } from './types.ts'

export interface ProjectionOptions {
  /**
   * Most wire nodes inlining `$ref`s may build in one projection; past it an inlined slot becomes JSON text. (Bytes
   * are bounded as well: `byte-budget.ts`.)
   */
  readonly nodeBudget?: number | undefined
  /**
   * Most schema levels projected one by one; a subtree nested deeper is sent as one any-JSON slot and checked
   * locally. Projection recurses per level, so this keeps it within the call stack for any schema the root contract
   * admits. Default 256.
   */
  readonly maxDepth?: number | undefined
  /** Counts projection work (tests only; see `WorkMeter`). */
  readonly meter?: WorkMeter | undefined
}

const DEFAULT_NODE_BUDGET = 10_000
export const DEFAULT_PROJECTION_DEPTH = 256
const MIN_PROJECTION_DEPTH = 16

/**
 * The wire schema of a tool's declared parameters for one route, the decoder that reads arguments back, and what
 * changed. `declared` must already meet the root contract. A schema the route accepts as it is comes back as the
 * very same object, so it is sent byte for byte as declared. So is every schema while `Object.prototype` carries
 * enumerable keys (`notProjected` says so): each node would seem to declare them.
 */
export function projectParameters(
  declared: JsonObject,
  profile: ProfileId,
  options: ProjectionOptions = {},
): Projection {
  const polluted = pollutedPrototypeKeys()
  if (polluted.length > 0)
    return { wire: declared, decoder: IDENTITY, changes: [], notProjected: pollutionReason(polluted) }
  const maxDepth = options.maxDepth ?? DEFAULT_PROJECTION_DEPTH
  const nodeBudget = options.nodeBudget ?? DEFAULT_NODE_BUDGET
  if (acceptedAsDeclared(declared, profileRules(profile), { maxDepth, nodeBudget }, options.meter))
    return { wire: declared, decoder: IDENTITY, changes: [] }
  return projectFully(declared, profile, nodeBudget, maxDepth, options.meter)
}

function pollutionReason(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((key) => JSON.stringify(key))
  if (keys.length > shown.length) shown.push(`${keys.length - shown.length} more`)
  return (
    `Object.prototype carries ${shown.join(', ')} (some code in this process assigned ${keys.length === 1 ? 'it' : 'them'} ` +
    'there), which every schema node would seem to declare, so schemas are sent as declared, as stock DSH sends them; ' +
    'find the code that writes to Object.prototype (often a deep merge of untrusted JSON) and fix it'
  )
}

/** `projectParameters` without the test for a schema the route takes as declared. */
export function projectFully(
  declared: JsonObject,
  profile: ProfileId,
  nodeBudget: number,
  initialDepth: number,
  meter?: WorkMeter,
): Projection {
  let maxDepth = initialDepth
  for (;;) {
    try {
      return projectWithin(declared, profile, nodeBudget, maxDepth, meter)
    } catch (error) {
      // Called from deep inside a host's own stack, the bound may still not fit: a shallower bound sends more as one
      // any-JSON slot, which is still checked locally. Stops at a depth every real tool schema fits in.
      if (!(error instanceof RangeError) || maxDepth <= MIN_PROJECTION_DEPTH) throw error
      maxDepth = Math.max(MIN_PROJECTION_DEPTH, Math.floor(maxDepth / 4))
    }
  }
}

/** Passes after which every recursive use of a kept definition is sent as JSON text (`Walk.unrolled`). */
const MAX_PASSES = 3

function projectWithin(
  declared: JsonObject,
  profile: ProfileId,
  budget: number,
  maxDepth: number,
  meter: WorkMeter | undefined,
): Projection {
  let unrolled: ReadonlySet<string> | 'all' = new Set<string>()
  for (let pass = 1; ; pass++) {
    const walk = createWalk(profileRules(profile), declared, budget, maxDepth, meter, unrolled)
    let projected: Projected
    try {
      projected = projectSchema(walk, declared, '')
      projectUnusedDefinitions(walk)
    } catch (error) {
      if (!(error instanceof InlineBudgetExceeded)) throw error
      return withhold(declared, profile, error.declaredBytes, undefined)
    }
    if (walk.misjudged.size > 0 && unrolled !== 'all') {
      // A recursive definition was taken to need no decoding and does: project again, reading it as JSON text there.
      unrolled = pass >= MAX_PASSES ? 'all' : new Set([...unrolled, ...walk.misjudged])
      continue
    }
    const wire = attachDefinitions(walk, projected.wire as JsonObject)
    const { decoder } = projected
    if (sameJson(wire, declared) && decoder.kind === 'identity')
      return { wire: declared, decoder, changes: [] }
    if (walk.inlining !== undefined) {
      // The running count bounds what was built; the wire's exact size is held to the same budget.
      const { declaredBytes, allowance } = walk.inlining
      const wireBytes = JSON.stringify(wire).length
      if (wireBytes > declaredBytes + allowance) return withhold(declared, profile, declaredBytes, wireBytes)
    }
    return { wire, decoder, changes: walk.changes }
  }
}

function withhold(
  declared: JsonObject,
  profile: ProfileId,
  declaredBytes: number,
  wireBytes: number | undefined,
): Projection {
  return {
    wire: declared,
    decoder: IDENTITY,
    changes: [],
    withheld: withheldNotice(profile, declaredBytes, wireBytes),
  }
}
