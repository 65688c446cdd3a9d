import type { JsonObject } from '../json-value.ts'
import { sameJson } from './canonical.ts'
import { profileRules } from './profiles.ts'
import { createWalk, projectSchema } from './project.ts'
import type { ProfileId, Projection } from './types.ts'

export interface ProjectionOptions {
  /** Most wire nodes one projection may build, so inlining `$ref`s cannot blow up; past it a slot becomes JSON text. */
  readonly nodeBudget?: number | undefined
}

const DEFAULT_NODE_BUDGET = 10_000

/**
 * The wire schema of a tool's declared parameters for one route, the decoder that reads arguments back, and what
 * changed. `declared` must already meet the root contract. A schema the route accepts as it is comes back as the
 * very same object, so it is sent byte for byte as declared.
 */
export function projectParameters(
  declared: JsonObject,
  profile: ProfileId,
  options: ProjectionOptions = {},
): Projection {
  const walk = createWalk(profileRules(profile), declared, options.nodeBudget ?? DEFAULT_NODE_BUDGET)
  const { wire, decoder } = projectSchema(walk, declared, '')
  if (sameJson(wire, declared) && decoder.kind === 'identity') return { wire: declared, decoder, changes: [] }
  return { wire: wire as JsonObject, decoder, changes: walk.changes }
}
