import { type JsonObject, pollutedPrototypeKeys } from '../json-value.ts'
import type { WorkMeter } from '../work-meter.ts'
import { acceptedAsDeclared } from './as-declared.ts'
import { sameJson } from './canonical.ts'
import { profileRules } from './profiles.ts'
import { createWalk, IDENTITY, projectSchema } from './project.ts'
import type { ProfileId, Projection } from './types.ts'

export interface ProjectionOptions {
  /** Most wire nodes one projection may build, so inlining `$ref`s cannot blow up; past it a slot becomes JSON text. */
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

function projectWithin(
  declared: JsonObject,
  profile: ProfileId,
  budget: number,
  maxDepth: number,
  meter: WorkMeter | undefined,
): Projection {
  const walk = createWalk(profileRules(profile), declared, budget, maxDepth, meter)
  const { wire, decoder } = projectSchema(walk, declared, '')
  if (sameJson(wire, declared) && decoder.kind === 'identity') return { wire: declared, decoder, changes: [] }
  return { wire: wire as JsonObject, decoder, changes: walk.changes }
}
