import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { type Command, type Io, parseOptions, usageFailure } from '../command.ts'
import { exitCodeOf, type Finding, failure, formatJson, formatText } from './finding.ts'
import { checkInstall } from './install.ts'
import { checkProfile, HMR_ROWS, profilesOf } from './profile.ts'
import { addRowsFix } from './user-layer.ts'

const usage = `Usage: dsh-harden doctor [--profile <name>] [--home <dir>] [--dsh <path>] [--json]

Checks a DeepSeek Harness install and its profiles for what stops DSH 0.1.0-rc.8 from starting and what stops the
dsh-harden overlay from running: the Node that runs dsh, the DSH version, the @deepseek-ai/cordis-plugin-hmr pin,
each profile's cordis.patch.yml (parsed as DSH parses it) and its hmr row, the dsh-harden and dsh-harden-early rows,
and our packages' peers. One line per finding, each problem with the exact fix.

Options:
  --profile <name>  the profile to check (default: every profile in <home>/profiles)
  --home <dir>      the DSH home (default: $DSH_HOME, else ~/.dsh)
  --dsh <path>      the dsh executable (default: dsh on PATH)
  --json            print { "ok", "findings": [ { "check", "severity", "message", "fix", "stops" } ] }
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
  /** The environment dsh runs with (PATH, DSH_HOME); default: this process's. */
  readonly env?: NodeJS.ProcessEnv | undefined
}

/** Every finding for an install and its profiles, in the order a user fixes them. */
export async function diagnose(options: DoctorOptions): Promise<Finding[]> {
  const env = options.env ?? process.env
  const home = options.home ?? dshHome(env)
  const findings: Finding[] = []
  const install = checkInstall({ bin: options.dsh, path: env.PATH ?? '' }, findings)
  if (install === undefined) return findings
  const profiles = options.profile === undefined ? profilesOf(home) : [options.profile]
  if (profiles.length === 0) {
    findings.push(
      failure(
        'profile',
        `no profile in ${join(home, 'profiles')}; \`dsh --dump-config\` creates the web profile without starting it`,
        `dsh --profile web --dump-config > /dev/null && ${addRowsFix(join(home, 'profiles', 'web', 'cordis.patch.yml'), { kind: 'missing' }, HMR_ROWS)}`,
        'dsh',
      ),
    )
    return findings
  }
  const context = { install, home, env: { ...env, DSH_HOME: home } }
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
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}
