import { type ModelRoute, PROFILE_IDS, type ProfileId, profileForRoute } from '@dsh-harden/tools'

/**
 * The profiles DSH places `routes` in, asked of `profileForRoute` when the table runs: a judge that stands for a
 * provider's API (Bedrock, Mistral, a local llama.cpp server) runs on whichever column that provider's requests get,
 * so a change of placement in `@dsh-harden/tools` moves the judge with it. A route placed nowhere adds no column.
 */
export function profilesReached(routes: readonly ModelRoute[]): readonly ProfileId[] {
  const placed = new Set(routes.map((route) => profileForRoute(route)))
  return PROFILE_IDS.filter((profile) => placed.has(profile))
}
