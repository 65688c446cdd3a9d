import type { ProfileId } from '@dsh-harden/tools'
import { UsageError } from '../command.ts'

/** The `--route` line every door's help shows (sanitize, `mcp repair`, `mcp gateway`). */
export const ROUTE_HELP = 'the model route the client sends the tools to (`--route ?` lists them)'

/**
 * The profile `--route` names, checked against the profiles of `@dsh-harden/tools` (loaded here, so commands run
 * without a route never load the projection). `undefined` when no route was given.
 */
export async function resolveRoute(value: string | undefined, flag: string): Promise<ProfileId | undefined> {
  if (value === undefined) return undefined
  const { PROFILE_IDS } = await import('@dsh-harden/tools')
  if ((PROFILE_IDS as readonly string[]).includes(value)) return value as ProfileId
  const given = value === '?' ? 'the routes are' : `unknown route ${JSON.stringify(value)}; pass one of`
  throw new UsageError(`${flag}: ${given}: ${PROFILE_IDS.join(', ')}`)
}
