import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Command, type Io, parseOptions, usageFailure } from '../command.ts'
import { exitCodeOf, type Finding, failure, formatJson, formatText, ok } from './finding.ts'
import { checkInstall } from './install.ts'
import { checkProfile, HMR_ROWS, profilesOf } from './profile.ts'
import { shell } from './shell.ts'
import { userEnvironment } from './user-env.ts'
import { writeRowsCommand } from './user-layer.ts'

const usage = `Usage: dsh-harden doctor [--profile <name>] [--home <dir>] [--dsh <path>] [--no-write] [--json]

Checks a DeepSeek Harness install and its profiles for what stops DSH 0.1.0-rc.8 from starting and what stops the
dsh-harden overlay from running: the Node that runs dsh, the DSH version, the @deepseek-ai/cordis-plugin-hmr pin,
each profile's cordis.patch.yml (parsed as DSH parses it) and its hmr row, every row of our packages in the profile
(dsh-harden, dsh-harden-early, dsh-harden-web, and those of tool-bash, tool-pwsh, tool-fs, mcp-client, lazy-mcp),
and our packages' peers. One line per finding, each problem with its fix: after "run:" one shell line to paste as
printed (every path in it quoted), after "fix:" what to do.

dsh is judged as your shell runs it: started by pnpm, npm or npx, doctor leaves out the folders they put in front
of PATH (a workspace's Node 22 among them) and their npm_* variables.

Doctor changes nothing in the DSH home. One check needs DSH to write: the profile's composition comes from
\`dsh --profile <p> --dump-config\`, which writes the links in profiles/node_modules and the profile's cordis.yml,
so doctor runs it against a throwaway copy of the profile and removes the copy after.

Options:
  --profile <name>  the profile to check (default: every profile in <home>/profiles)
  --home <dir>      the DSH home (default: $DSH_HOME, else ~/.dsh)
  --dsh <path>      the dsh executable (default: dsh on your shell's PATH)
  --no-write        skip the checks that need DSH to write, even to a throwaway copy (compose, hmr-row, row)
  --json            print { "ok", "findings": [ { "check", "severity", "message", "fix", "command", "stops" } ] }
                    ("command" is the shell line when the fix is one, else null)
  -h, --help        show this help

Exit codes: 0 DSH starts and the overlay runs (warnings allowed); 1 something stops DSH or the overlay; 2 bad usage.
`

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check a DSH install and profile for what stops DSH or the overlay, with the fix for each',
  usage,
  run: runDoctor,
}

export interface DoctorOptions {
  readonly profile?: string | undefined
  readonly home?: string | undefined
  readonly dsh?: string | undefined
  /** The environment doctor was started with (PATH, DSH_HOME); default: this process's. */
  readonly env?: NodeJS.ProcessEnv | undefined
  /** The folder doctor was started in; default: this process's. */
  readonly cwd?: string | undefined
  /** Skip the checks that need DSH to write (to a throwaway copy of the home). */
  readonly noWrite?: boolean | undefined
}

/** This package's folder: a package manager that runs doctor puts its node_modules/.bin first on PATH. */
const SELF_DIR = fileURLToPath(new URL('../..', import.meta.url))

/** Every finding for an install and its profiles, in the order a user fixes them. */
export async function diagnose(options: DoctorOptions): Promise<Finding[]> {
  const user = userEnvironment(options.env ?? process.env, {
    cwd: options.cwd ?? process.cwd(),
    selfDir: SELF_DIR,
  })
  const env = user.env
  const home = options.home ?? dshHome(env)
  const findings: Finding[] = []
  if (user.leftOut.length > 0)
    findings.push(
      ok(
        'path',
        `dsh is judged on your shell's PATH: left out what ${user.packageManager ?? 'the package manager'} put in ` +
          `front of it to run doctor (${[...new Set(user.leftOut)].join(', ')})`,
      ),
    )
  const install = checkInstall({ bin: options.dsh, path: env.PATH ?? '' }, findings)
  if (install === undefined) return findings
  const profiles = options.profile === undefined ? profilesOf(home) : [options.profile]
  if (profiles.length === 0) {
    findings.push(
      failure(
        'profile',
        `no profile in ${join(home, 'profiles')}; \`dsh --dump-config\` creates the web profile without starting it`,
        shell`dsh --profile web --dump-config > /dev/null && ${writeRowsCommand(join(home, 'profiles', 'web', 'cordis.patch.yml'), HMR_ROWS)}`,
        'dsh',
      ),
    )
    return findings
  }
  const context = { install, home, env: { ...env, DSH_HOME: home }, noWrite: options.noWrite === true }
  for (const profile of profiles) await checkProfile(context, profile, findings)
  return findings
}

/** DSH's own rule (dsh-home-paths `resolveDshHome`): `$DSH_HOME` unless blank, else `~/.dsh`. */
function dshHome(env: NodeJS.ProcessEnv): string {
  const value = env.DSH_HOME?.trim()
  return value === undefined || value === '' ? join(homedir(), '.dsh') : value
}

async function runDoctor(args: readonly string[], io: Io): Promise<number> {
  let values: ReturnType<typeof parse>['values']
  try {
    ;({ values } = parse(args))
  } catch (error) {
    return usageFailure(io, 'doctor', error)
  }
  if (values.help) {
    io.stdout(usage)
    return 0
  }
  if (values.profile !== undefined && !isProfileName(values.profile))
    return usageFailure(
      io,
      'doctor',
      new Error(
        `--profile ${JSON.stringify(values.profile)} is not a profile name (a folder name under <home>/profiles)`,
      ),
    )
  const findings = await diagnose({
    profile: values.profile,
    home: values.home === undefined ? undefined : resolve(io.cwd, values.home),
    dsh: values.dsh === undefined ? undefined : resolve(io.cwd, values.dsh),
    cwd: io.cwd,
    noWrite: values['no-write'],
  })
  io.stdout(values.json === true ? formatJson(findings) : formatText(findings))
  return exitCodeOf(findings)
}

/** dsh-app-boot `resolveProfileDir`'s rule: one folder name, not `.`, `..` or DSH's own `node_modules`. */
function isProfileName(name: string): boolean {
  return /^[^/\\]+$/.test(name) && name !== '.' && name !== '..' && name !== 'node_modules'
}

function parse(args: readonly string[]) {
  return parseOptions({
    args: [...args],
    allowPositionals: false,
    strict: true,
    options: {
      profile: { type: 'string' },
      home: { type: 'string' },
      dsh: { type: 'string' },
      'no-write': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
