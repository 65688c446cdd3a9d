/** Names a stdio child never inherits: anything credential-shaped, and the harness's own `DSH_` variables. */
const CREDENTIAL_NAME = /KEY|PASSWORD|SECRET|TOKEN/i
const HARNESS_NAME = /^DSH_/i

/** Whether the gateway drops this parent variable before spawning a server. */
export function isScrubbedName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) || HARNESS_NAME.test(name)
}

/**
 * A stdio server's environment: the parent's, minus every credential-shaped and `DSH_` name, then the server's
 * own `env` on top. A server that needs a secret gets it only through its own `env` entry.
 */
export function childEnv(
  parent: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isScrubbedName(name)) continue
    env[name] = value
  }
  return Object.assign(env, own)
}
