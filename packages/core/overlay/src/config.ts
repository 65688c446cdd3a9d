import type { ProfileId } from '@dsh-harden/tools'
import { configuredRoute, type RouteOption } from './gate/configured-route.ts'
import type { OverlayMode } from './gate/judge.ts'

/** Configuration of the overlay plugin, as written in a DSH profile's `cordis.patch.yml` row. */
export interface OverlayConfig extends RouteOption {
  /** `refuse` (default), `repair` or `throw`: what happens to a tool that fails the root contract. */
  readonly mode?: Exclude<OverlayMode, 'collect'> | undefined
  /** Reject calls whose arguments do not match the declared schema, for every tool. */
  readonly validateArguments?: boolean | undefined
}

/** The config as the plugin uses it: every key read, checked and defaulted. */
export interface OverlaySettings {
  readonly mode: Exclude<OverlayMode, 'collect'>
  /**
   * The model route whose wire schemas to send, with arguments read back for it. Unset: the route each request
   * actually uses, detected per agent (see `route/route-projection.ts`).
   */
  readonly route: ProfileId | undefined
  readonly validateArguments: boolean
}

// `collect` is for callers that take each verdict through `onVerdict` (`dsh-harden lint`); a profile row has no such
// callback, so there it would only be `refuse` under another name.
const MODES: readonly OverlaySettings['mode'][] = ['refuse', 'repair', 'throw']

function configError(message: string): Error {
  return new Error(`dsh-harden overlay config: ${message}; fix the dsh-harden row in cordis.patch.yml`)
}

/** Reads a profile row's config, failing the overlay at load with the key, the value and the valid ones. */
export function readConfig(config: unknown, notify: (line: string) => void): OverlaySettings {
  const given = (config ?? {}) as OverlayConfig
  const validateArguments = given.validateArguments ?? false
  if (typeof validateArguments !== 'boolean') {
    throw configError(`validateArguments must be true or false, got ${JSON.stringify(validateArguments)}`)
  }
  const mode = given.mode ?? 'refuse'
  if (!MODES.includes(mode))
    throw configError(`mode ${JSON.stringify(mode)} is not one of ${MODES.join(', ')}`)
  return { mode, route: configuredRoute(given, notify, configError), validateArguments }
}
