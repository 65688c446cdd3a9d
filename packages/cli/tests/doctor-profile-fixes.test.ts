import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type DshHome, HEADLESS_BUNDLES, profileDir, writeProfile } from '@dsh-harden/testkit/dsh-app'
import { WORKSPACE_ROOT } from '@dsh-harden/testkit/workspace-packages'
import { describe, expect, it } from 'vitest'
import {
  doctorJson,
  dumpConfig,
  failing,
  finding,
  okFor,
  pasteIntoBash,
  realAppHomes,
  runDoctor,
  SYSTEM_PATH,
  treeOf,
  userEnv,
} from './doctor-run.ts'

/**
 * Doctor on the real `dsh` 0.1.0-rc.8 (testkit's cached app) from a home whose path has a space and a single quote.
 * Each trap is made for real, doctor runs as a subprocess, each printed fix is pasted into `bash -c` from that home,
 * and the next doctor run no longer reports it. Every run leaves the DSH home exactly as it was.
 */
const real = realAppHomes("dsh-harden-doctor it's ")
const awkwardHome = real.home

function envOf(home: DshHome): Record<string, string> {
  return userEnv(home.root, home.dir, `${real.app().binDir}:${SYSTEM_PATH}`)
}

function dshInit(home: DshHome, profile: string): Promise<void> {
  return dumpConfig(real.app(), home, profile, envOf(home))
}

/**
 * Our workspace packages, copied into the profile where `dsh plugin add` installs them, without their own
 * node_modules: as installed, their peers come only from DSH's `profiles/node_modules`.
 */
const PACKAGE_DIRS: Record<string, string> = {
  overlay: 'packages/core/overlay',
  'tool-bash': 'packages/shell/tool-bash',
  'lazy-mcp': 'packages/mcp/lazy-mcp',
}

function profileWith(home: DshHome, profile: string, packages: readonly string[], rows: string): string {
  const names = packages.map((short) => `@dsh-harden/${short}`)
  const dir = writeProfile(home, profile, {
    bundles: [...HEADLESS_BUNDLES, ...names],
    dependencies: Object.fromEntries(names.map((name) => [name, '0.1.0'])),
    patch: rows,
  })
  for (const short of packages)
    cpSync(join(WORKSPACE_ROOT, PACKAGE_DIRS[short]!), join(dir, 'node_modules', '@dsh-harden', short), {
      recursive: true,
      filter: (source) => !source.includes('/node_modules'),
    })
  return dir
}

/** Doctor, checked to leave the DSH home byte for byte (and mtime for mtime) as it found it. */
async function readOnlyDoctor(home: DshHome, args: readonly string[] = []) {
  const before = treeOf(home.dir)
  const result = await doctorJson(envOf(home), args)
  expect(treeOf(home.dir)).toEqual(before)
  return result
}

describe('doctor fixes, pasted into bash from a home with a space and a quote', { timeout: 600_000 }, () => {
  it('an empty home: the fix creates the web profile with the hmr row', async () => {
    const home = awkwardHome()
    const before = await readOnlyDoctor(home)
    const profile = finding(before.findings, 'profile')
    expect(profile.command).toContain(`'${home.dir.replaceAll("'", "'\\''")}/profiles/web/cordis.patch.yml'`)
    pasteIntoBash(profile.command, envOf(home))
    const after = await readOnlyDoctor(home)
    expect(okFor(after.findings, 'profile')).toBe(true)
    expect(okFor(after.findings, 'hmr-row')).toBe(true)
  })

  it('the profile DSH creates has the hmr row off; the fix turns it on', async () => {
    const home = awkwardHome()
    await dshInit(home, 'headless')
    const before = await readOnlyDoctor(home)
    pasteIntoBash(finding(before.findings, 'hmr-row').command, envOf(home))
    expect(okFor((await readOnlyDoctor(home)).findings, 'hmr-row')).toBe(true)
  })

  it('a row appended below the template `[]`: the fix deletes that line', async () => {
    const home = awkwardHome()
    await dshInit(home, 'headless')
    const file = join(profileDir(home, 'headless'), 'cordis.patch.yml')
    appendFileSync(file, '- id: hmr\n  disabled: false\n')
    const before = await readOnlyDoctor(home)
    const yaml = finding(before.findings, 'patch-file')
    expect(yaml.command).toBe(`sed -i 4d '${file.replaceAll("'", "'\\''")}'`)
    pasteIntoBash(yaml.command, envOf(home))
    const after = await readOnlyDoctor(home)
    expect(okFor(after.findings, 'patch-file')).toBe(true)
    expect(okFor(after.findings, 'hmr-row')).toBe(true)
  })

  it('every row of ours is checked, the web row included; the fix of each disabled one turns it on', async () => {
    const home = awkwardHome()
    const rows = '- id: dsh-harden-web\n  disabled: true\n- id: dsh-harden-tool-bash\n  disabled: true\n'
    profileWith(home, 'headless', ['overlay', 'tool-bash', 'lazy-mcp'], rows)
    const before = await readOnlyDoctor(home, ['--profile', 'headless'])
    const disabled = failing(before.findings, 'row').filter((f) => f.severity === 'error')
    expect(disabled.map((f) => f.message)).toEqual([
      "profile headless: the dsh-harden-web row (@dsh-harden/overlay: it serves the Web UI's Tool contracts panel) is disabled, so it never runs",
      "profile headless: the dsh-harden-tool-bash row (@dsh-harden/tool-bash: it removes escalation placeholders from DSH's bash calls) is disabled, so it never runs",
    ])
    expect(disabled.every((f) => f.stops === 'overlay')).toBe(true)
    const lazy = before.findings.find((f) => f.message.includes('the lazy-mcp row'))
    expect(lazy).toMatchObject({ severity: 'warn', command: null })
    for (const fix of disabled) pasteIntoBash(fix.command, envOf(home))
    const after = await readOnlyDoctor(home, ['--profile', 'headless'])
    const on = after.findings.filter((f) => f.check === 'row' && f.severity === 'ok').map((f) => f.message)
    expect(on.map((message) => /the (\S+) row/.exec(message)?.[1])).toEqual([
      'dsh-harden-early',
      'dsh-harden',
      'dsh-harden-web',
      'dsh-harden-tool-bash',
    ])
    expect(after.code).toBe(0)
  })

  it('a row of ours whose package is not installed: named, with the install command', async () => {
    const home = awkwardHome()
    const rows = '- insert:\n    - id: dsh-harden-tool-fs\n      name: "@dsh-harden/tool-fs"\n'
    profileWith(home, 'headless', ['overlay'], rows)
    const { findings } = await readOnlyDoctor(home, ['--profile', 'headless'])
    expect(finding(findings, 'package')).toMatchObject({
      severity: 'error',
      message: `profile headless: the dsh-harden-tool-fs row imports @dsh-harden/tool-fs, which does not resolve from ${profileDir(home, 'headless')} (not installed)`,
      command: 'dsh plugin --profile headless install',
    })
  })
})

describe('doctor names a composition DSH cannot make', { timeout: 600_000 }, () => {
  it('a bundle layer that is not installed: DSH’s own error, naming the user’s profile, not the copy', async () => {
    const home = awkwardHome()
    const dir = writeProfile(home, 'headless', { bundles: [...HEADLESS_BUNDLES, '@dsh-harden/tool-pwsh'] })
    const compose = finding((await readOnlyDoctor(home, ['--profile', 'headless'])).findings, 'compose')
    expect(compose).toMatchObject({ severity: 'error', stops: 'dsh', command: null })
    expect(compose.message).toContain(
      `Error: dsh: cannot resolve profile bundle "@dsh-harden/tool-pwsh" from the dsh installation or ${dir}; run ` +
        "'dsh plugin --profile headless install'",
    )
  })
})

describe('doctor is read-only', { timeout: 600_000 }, () => {
  it('a home DSH never started (no profiles/node_modules): untouched, and the peers DSH will link are found', async () => {
    const home = awkwardHome()
    profileWith(home, 'headless', ['overlay'], '')
    const { findings } = await readOnlyDoctor(home, ['--profile', 'headless'])
    expect(findings.find((f) => f.check === 'compose')?.message).toContain('in a throwaway copy of the home')
    expect(failing(findings, 'peer')).toEqual([])
    expect(findings.find((f) => f.check === 'package')?.message).toMatch(
      /its peers come from DSH's install \(@deepseek-ai\/cordis 4\.\d+\.\d+, @deepseek-ai\/dsh-tools 0\.1\.0-rc\.8\)/,
    )
  })

  it('--no-write skips what needs DSH to write, and says so', async () => {
    const home = awkwardHome()
    await dshInit(home, 'headless')
    writeFileSync(join(profileDir(home, 'headless'), 'cordis.patch.yml'), '- id: hmr\n  disabled: false\n')
    const before = treeOf(home.dir)
    const result = await runDoctor(envOf(home), ['--no-write'])
    expect(treeOf(home.dir)).toEqual(before)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines.filter((line) => line.startsWith('skip '))).toEqual(
      ['compose', 'hmr-row', 'row'].map(
        (check) =>
          `skip ${check}: profile headless: skipped by --no-write; it needs \`dsh --profile headless --dump-config\`, ` +
          "which writes the links in profiles/node_modules and the profile's cordis.yml (doctor runs it in a " +
          'throwaway copy of the home)',
      ),
    )
    expect(lines.at(-1)).toBe(
      'doctor: no problem in the checks that ran; not checked: compose, hmr-row, row (run without --no-write for them)',
    )
    expect(result.code).toBe(0)
    expect(readFileSync(join(profileDir(home, 'headless'), 'cordis.patch.yml'), 'utf8')).toContain('hmr')
  })
})
