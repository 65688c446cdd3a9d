import { PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'

/** The options that name the one model route whose wire schemas to send. */
export interface RouteOption {
  /** The model route (`deepseek`, `openai`, `openai-strict`, `codex`, `anthropic`, `gemini`, `moonshot`, `dsh-subset`). */
  readonly route?: ProfileId | undefined
  /**
   * @deprecated The old name of `route`, still read (with a one-time notice): in DSH a "profile" is the profile
   * directory a session runs in, which this option never meant.
   */
  readonly profile?: ProfileId | undefined
}

// Once per process: a profile reloaded on every config change should not repeat it.
let deprecationTold = false

/**
 * The configured route, read from `route` or the deprecated `profile` (telling `notify` once per process to rename
 * it); `undefined` when neither is set. Throws `invalid(message)` for a value that is no route or two that disagree.
 */
export function configuredRoute(
  given: RouteOption,
  notify: (line: string) => void,
  invalid: (message: string) => Error,
): ProfileId | undefined {
  const { route, profile } = given
  for (const [key, value] of [
    ['route', route],
    ['profile', profile],
  ] as const) {
    if (value !== undefined && !PROFILE_IDS.includes(value))
      throw invalid(`${key} ${JSON.stringify(value)} is not one of ${PROFILE_IDS.join(', ')}`)
  }
  if (profile === undefined) return route
  if (route !== undefined && route !== profile)
    throw invalid(
      `route ${JSON.stringify(route)} and its old name profile ${JSON.stringify(profile)} disagree; keep route only`,
    )
  if (!deprecationTold) {
    deprecationTold = true
    notify(
      `dsh-harden: the overlay option "profile" is now called "route" (in DSH a profile is the directory a session runs in); rename profile: ${profile} to route: ${profile}. The old name still works.`,
    )
  }
  return profile
}
