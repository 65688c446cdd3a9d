import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type DshHome, profileDir, runBounded } from '@dsh-harden/testkit/dsh-app'
import { describe, expect, it } from 'vitest'
import {
  doctorJson,
  dumpConfig,
  finding,
  okFor,
  pasteIntoBash,
  realAppHomes,
  runDoctor,
  SYSTEM_PATH,
  userEnv as userEnvOf,
} from './doctor-run.ts'

/**
 * `dsh-harden doctor` on the real `dsh` 0.1.0-rc.8 app (testkit's cached install: the pinned hmr, Node 22 beside it),
 * each trap made for real with DSH's own commands in a fresh DSH home, doctor run as a subprocess on Node 22, and
 * each printed fix applied verbatim with bash. The install traps that need an install of their own (hmr unpinned,
 * no Node 22 beside dsh) are the regress row `app-doctor-install`.
 */
const real = realAppHomes('dsh-harden-doctor-')
const freshHome = real.home

/** The environment a user has after INSTALL.md step 1: the app's bin first on PATH, their own DSH home. */
function userEnv(home: DshHome, path = `${real.app().binDir}:${SYSTEM_PATH}`): Record<string, string> {
  return userEnvOf(home.root, home.dir, path)
}

function doctor(home: DshHome, args: readonly string[] = [], path?: string) {
  return doctorJson(userEnv(home, path), args)
}

/** Runs a fix exactly as doctor printed it, in the user's shell environment. */
function applyFix(home: DshHome, command: string | null): void {
  pasteIntoBash(command, userEnv(home))
}

/** DSH's own profile initialization (`dsh --dump-config` writes the template, `[]` user layer included). */
function dshInitProfile(home: DshHome, profile: string): Promise<void> {
  return dumpConfig(real.app(), home, profile, userEnv(home))
}

/** A headless start of the profile with no model endpoint: what DSH prints before it would send anything. */
async function dshStart(home: DshHome, profile: string, path?: string) {
  return runBounded(join(real.app().binDir, 'dsh'), ['--profile', profile, 'hi'], {
    cwd: home.workspace,
    env: { ...userEnv(home, path), DEEPSEEK_API_KEY: 'sk-local', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9/v1' },
    timeoutMs: 90_000,
    label: 'dsh --profile headless',
  })
}

describe('dsh-harden doctor on the real dsh 0.1.0-rc.8', { timeout: 600_000 }, () => {
  it('names a missing dsh and says how to install it', async () => {
    const { code, findings } = await doctor(freshHome(), [], SYSTEM_PATH)
    expect(code).toBe(1)
    const dsh = finding(findings, 'dsh')
    expect(dsh).toMatchObject({ severity: 'error', stops: 'dsh', message: 'no `dsh` on PATH' })
    expect(dsh.fix).toContain('INSTALL.md step 1')
  })

  it('finds the app the way a user has it: the Node beside the pnpm shim, the pinned hmr, the supported version', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    const { findings } = await doctor(home)
    expect(okFor(findings, 'dsh')).toBe(true)
    expect(findings.find((f) => f.check === 'node')?.message).toMatch(
      new RegExp(`^${join(real.app().binDir, 'node')} v22\\.\\d+\\.\\d+ runs dsh`),
    )
    expect(okFor(findings, 'dsh-version')).toBe(true)
    expect(findings.find((f) => f.check === 'hmr-pin')?.message).toMatch(
      /^@deepseek-ai\/cordis-plugin-hmr 1\.0\.16 has registerConfig\(\)/,
    )
  })

  it('names the Node that runs an npm-linked dsh, which dies on Node 20', async () => {
    const home = freshHome()
    // What `npm install --global` makes: a symlink to the package's bin script, run by the first `node` on PATH.
    const linkDir = join(home.root, 'npm-bin')
    mkdirSync(linkDir)
    symlinkSync(
      join(real.app().dir, 'node_modules', '@deepseek-ai', 'dsh', 'lib', 'bin.js'),
      join(linkDir, 'dsh'),
    )
    const path = `${linkDir}:${SYSTEM_PATH}`
    const systemNode = execFileSync('bash', ['-c', 'command -v node'], { env: { PATH: SYSTEM_PATH } })
      .toString()
      .trim()
    const version = execFileSync(systemNode, ['--version']).toString().trim()
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number)
    const tooOld = major < 22 || (major === 22 && minor < 19)
    await dshInitProfile(home, 'headless')
    const { findings } = await doctor(home, [], path)
    const node = findings.find((f) => f.check === 'node')!
    expect(node.message).toMatch(new RegExp(`^${systemNode} ${version.replace(/\./g, '\\.')} runs dsh`))
    expect(node.severity).toBe(tooOld ? 'error' : 'ok')
    if (tooOld) {
      // The trap is real: this dsh does not start on that Node.
      writeFileSync(join(profileDir(home, 'headless'), 'cordis.patch.yml'), '- id: hmr\n  disabled: false\n')
      const start = await dshStart(home, 'headless', path)
      expect(start.exitCode).not.toBe(0)
      expect(node.fix).toMatch(/Node >= 22\.19 first on PATH/)
    }
  })

  it('a profile DSH created has the hmr row off: doctor names it, and its fix makes the row on', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    const file = join(profileDir(home, 'headless'), 'cordis.patch.yml')
    expect(readFileSync(file, 'utf8')).toMatch(/^\[\]$/m)
    const start = await dshStart(home, 'headless')
    expect(start.exitCode).not.toBe(0)
    expect(start.stderr).toContain('user patch-layer watching requires the Cordis HMR service')
    const before = await doctor(home)
    expect(before.code).toBe(1)
    const hmr = finding(before.findings, 'hmr-row')
    expect(hmr).toMatchObject({ severity: 'error', stops: 'dsh' })
    expect(hmr.message).toContain('user patch-layer watching requires the Cordis HMR service')
    expect(hmr.fix).toBe(`printf -- '- id: hmr\\n  disabled: false\\n' > ${file}`)
    applyFix(home, hmr.command)
    const after = await doctor(home)
    expect(okFor(after.findings, 'hmr-row')).toBe(true)
    expect(okFor(after.findings, 'patch-file')).toBe(true)
  })

  it('a row appended below the template `[]` is a YAMLException: doctor names the line and the line to delete', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    const file = join(profileDir(home, 'headless'), 'cordis.patch.yml')
    execFileSync('bash', ['-c', `printf -- '- id: hmr\\n  disabled: false\\n' >> ${file}`])
    const start = await dshStart(home, 'headless')
    expect(start.exitCode).not.toBe(0)
    expect(start.stderr).toContain('YAMLException')
    const before = await doctor(home)
    const yaml = finding(before.findings, 'patch-file')
    expect(yaml.message).toBe(
      `${file}:5:1: YAMLException: end of the stream or a document separator is expected; dsh cannot read profile ` +
        "headless: DSH's template wrote the empty list `[]` on line 4, and a `- ` row below it is a second YAML value",
    )
    expect(yaml.command).toBe(`sed -i 4d ${file}`)
    applyFix(home, yaml.command)
    const after = await doctor(home)
    expect(okFor(after.findings, 'patch-file')).toBe(true)
    expect(okFor(after.findings, 'hmr-row')).toBe(true)
  })

  it('a user layer that is a mapping, not a list, is named as such', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    const file = join(profileDir(home, 'headless'), 'cordis.patch.yml')
    writeFileSync(file, 'id: hmr\ndisabled: false\n')
    const yaml = finding((await doctor(home)).findings, 'patch-file')
    expect(yaml.message).toBe(`${file} holds a mapping, not the YAML list of patch rows DSH expects`)
    expect(yaml.fix).toContain(`printf -- '- id: hmr\\n  disabled: false\\n' > ${file}`)
  })

  it('an empty home: no profile, and the fix creates one with the hmr row', async () => {
    const home = freshHome()
    const before = await doctor(home)
    const profile = finding(before.findings, 'profile')
    expect(profile.message).toContain(`no profile in ${join(home.dir, 'profiles')}`)
    applyFix(home, profile.command)
    const after = await doctor(home)
    expect(after.findings.find((f) => f.check === 'profile')?.message).toBe(
      `profile web: ${profileDir(home, 'web')}`,
    )
    expect(okFor(after.findings, 'hmr-row')).toBe(true)
  })

  it('a profile without the overlay: the overlay would not run, and the fix is the install route', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    writeFileSync(join(profileDir(home, 'headless'), 'cordis.patch.yml'), '- id: hmr\n  disabled: false\n')
    const { code, findings } = await doctor(home, ['--profile', 'headless'])
    expect(code).toBe(1)
    const overlay = finding(findings, 'overlay')
    expect(overlay).toMatchObject({ severity: 'error', stops: 'overlay' })
    expect(overlay.fix).toMatch(
      /^pnpm -C \/\S+ local-registry -- dsh plugin --profile headless add @dsh-harden\/overlay$/,
    )
  })

  it('prints one line per finding with its fix, and a summary', async () => {
    const home = freshHome()
    await dshInitProfile(home, 'headless')
    const result = await runDoctor(userEnv(home), [])
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines.at(-1)).toBe('doctor: DSH would not start (or every turn would fail): 2 problems to fix')
    const failing = lines.filter((line) => line.startsWith('FAIL '))
    expect(failing.map((line) => line.split(':')[0])).toEqual(['FAIL hmr-row', 'FAIL overlay'])
    // Each fix is a command: everything after ` — run: ` is one shell line.
    for (const line of failing) expect(line).toMatch(/ — run: \S/)
  })

  it('refuses a profile name DSH would refuse, as a usage error', async () => {
    const result = await runDoctor(userEnv(freshHome()), ['--profile', '../x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'dsh-harden doctor: --profile "../x" is not a profile name (a folder name under <home>/profiles); run ' +
        '`dsh-harden doctor --help` for the usage\n',
    )
  })
})
