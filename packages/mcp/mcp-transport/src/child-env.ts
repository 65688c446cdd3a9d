/**
 * The environment of every MCP server process we start (lazy-mcp's gateway, `mcp repair -- <command>`, `mcp check
 * -- <command>`): an allow-list, never the parent's environment minus a deny-list. A deny-list by name always has
 * gaps (`SSH_AUTH_SOCK`, `DATABASE_URL=postgres://u:p@h/db`, `MYSQL_PWD`, `KUBECONFIG`, cookies …), and an MCP
 * server is third-party code. Same idea as the MCP SDK's `getDefaultEnvironment()` (`DEFAULT_INHERITED_ENV_VARS`
 * in `@modelcontextprotocol/sdk/client/stdio`), with a few platform essentials added; each is justified below.
 *
 * Order: the default names the parent has, then the names the user lists (`passEnv`), then the server's own `env`
 * from its configuration (it wins: the user wrote it for this server).
 */

/** POSIX: the SDK's six, plus locale, time zone and temp dir, which change how a program reads and writes files. */
const POSIX_DEFAULT = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  // Text encoding of file names and output; without it Node/Python servers fall back to ASCII or C locale.
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  // Local time in tool results (calendars, logs).
  'TZ',
  // macOS gives each user a private temp dir here; /tmp is shared.
  'TMPDIR',
] as const

/** Windows: the SDK's list, plus what `cmd.exe` needs to run `npx.cmd`-style wrappers. */
const WINDOWS_DEFAULT = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
  // `spawn('npx')` resolves through PATHEXT and runs .cmd files with COMSPEC.
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
] as const

/** The variables a child MCP server inherits by default on this platform. */
export const DEFAULT_CHILD_ENV_NAMES: readonly string[] =
  process.platform === 'win32' ? WINDOWS_DEFAULT : POSIX_DEFAULT

export interface ChildEnvOptions {
  /** The server's own `env` from its configuration; set last, verbatim. */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Parent variables the user allows this server to see beyond the default set (exact names). */
  readonly passEnv?: readonly string[] | undefined
  /** Defaults to {@link DEFAULT_CHILD_ENV_NAMES}; tests name a platform explicitly. */
  readonly defaults?: readonly string[] | undefined
  /** Windows compares names without case. Default: this platform. */
  readonly caseInsensitive?: boolean | undefined
}

/**
 * The complete environment for a child MCP server. Nothing else of the parent is inherited. A value that starts
 * with `()` is a shell function export (Shellshock-style), skipped as the SDK does.
 */
export function childEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  options: ChildEnvOptions = {},
): Record<string, string> {
  const fold =
    (options.caseInsensitive ?? process.platform === 'win32')
      ? (name: string) => name.toUpperCase()
      : (name: string) => name
  const wanted = new Set(
    [...(options.defaults ?? DEFAULT_CHILD_ENV_NAMES), ...(options.passEnv ?? [])].map(fold),
  )
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || value.startsWith('()') || !wanted.has(fold(name))) continue
    env[name] = value
  }
  return Object.assign(env, options.env)
}
