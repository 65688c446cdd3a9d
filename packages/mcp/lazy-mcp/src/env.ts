import { childEnvironment } from '@dsh-harden/mcp-transport'

/**
 * A stdio server's environment: the default allow-list (`DEFAULT_CHILD_ENV_NAMES` in `@dsh-harden/mcp-transport`:
 * HOME, LOGNAME, PATH, SHELL, TERM, USER, locale, TZ, TMPDIR), then the parent variables named in `passEnv`, then the
 * server's own `env`. Nothing else of the parent reaches a server, so a secret reaches it only when the user names it.
 */
export function childEnv(
  parent: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  return childEnvironment(parent, { env: own, passEnv })
}
