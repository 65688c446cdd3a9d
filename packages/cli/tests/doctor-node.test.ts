import { execFile } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { childEnv } from '@dsh-harden/testkit/dsh-app'
import { afterEach, describe, expect, it } from 'vitest'
import { findOnPath } from '../src/doctor/locate.ts'
import { doctorJson, finding, type JsonFinding, pasteIntoBash, runDoctor } from './doctor-run.ts'
import { BIN } from './run-cli.ts'

/**
 * The Node doctor names is the one the user's own `dsh` runs on, however doctor was started. A fake DSH install
 * (the `@deepseek-ai/dsh` manifest and a bin whose shebang is `#!/usr/bin/env node`, linked as npm links it) and a
 * fake Node 20 (a script that answers `--version`) are all the install checks read, so no real app is needed here.
 */
const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A temp folder whose path has a space and a single quote, as a user's home may. */
function awkwardRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "dsh-harden-doctor it's "))
  roots.push(root)
  return root
}

function executable(file: string, text: string): void {
  writeFileSync(file, text)
  chmodSync(file, 0o755)
}

interface FakeInstall {
  /** HOME, with an empty DSH home in it. */
  readonly home: string
  /** The folder of the user's `node` (v20.11.1). */
  readonly node20: string
  /** The folder of the user's `dsh`. */
  readonly dshBin: string
}

/** npm-style: `<bin>/dsh` links to the package's `lib/bin.js`, run by the first `node` on PATH. */
function fakeInstall(root: string): FakeInstall {
  const home = join(root, 'home')
  const node20 = join(root, 'node20')
  const dshBin = join(root, 'npm-bin')
  const dshPackage = join(root, 'app', 'node_modules', '@deepseek-ai', 'dsh')
  for (const dir of [join(home, '.dsh'), node20, dshBin, join(dshPackage, 'lib')])
    mkdirSync(dir, { recursive: true })
  executable(join(node20, 'node'), '#!/bin/sh\necho v20.11.1\n')
  writeFileSync(join(dshPackage, 'package.json'), '{ "name": "@deepseek-ai/dsh", "version": "0.1.0-rc.8" }\n')
  executable(join(dshPackage, 'lib', 'bin.js'), '#!/usr/bin/env node\n')
  symlinkSync(join(dshPackage, 'lib', 'bin.js'), join(dshBin, 'dsh'))
  return { home, node20, dshBin }
}

/** pnpm's own script (so running pnpm does not depend on which `node` the PATH under test finds first). */
function pnpmScript(): string {
  const pnpm = findOnPath('pnpm', childEnv(process.env).PATH ?? '')
  if (pnpm === undefined) throw new Error('pnpm is not on PATH; the workspace is installed with it')
  return realpathSync(pnpm)
}

function runPnpmExec(cwd: string, env: Record<string, string>, args: readonly string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [pnpmScript(), 'exec', ...args],
      { cwd, env, timeout: 600_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr })
      },
    )
  })
}

describe('doctor names the Node the user’s own dsh runs on', { timeout: 600_000 }, () => {
  it('run through `pnpm exec` with a Node 22 first on PATH, it names the Node 20 of the user’s PATH', async () => {
    const root = awkwardRoot()
    const user = fakeInstall(root)
    // A project whose node_modules/.bin holds a Node 22 (this one): `pnpm exec` puts it first on PATH, as
    // `pnpm dsh-harden doctor` puts the workspace's.
    const project = join(root, 'project')
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
    writeFileSync(join(project, 'package.json'), '{ "private": true }\n')
    symlinkSync(process.execPath, join(project, 'node_modules', '.bin', 'node'))
    const path = [user.node20, user.dshBin, '/usr/bin', '/bin'].join(delimiter)
    const env = { HOME: user.home, DSH_HOME: join(user.home, '.dsh'), PATH: path }
    const run = await runPnpmExec(project, env, ['node', BIN, 'doctor', '--json'])
    const findings = (JSON.parse(run.stdout) as { findings: JsonFinding[] }).findings
    const node = findings.find((f) => f.check === 'node')!
    expect(node).toMatchObject({ severity: 'error', stops: 'dsh' })
    expect(node.message).toBe(
      `${join(user.node20, 'node')} v20.11.1 runs dsh; DSH needs Node >= 22.19 and does not start on v20.11.1`,
    )
    expect(findings.find((f) => f.check === 'path')?.message).toContain(join(project, 'node_modules', '.bin'))
  })

  it('run directly, it reads the same PATH (nothing to leave out)', async () => {
    const user = fakeInstall(awkwardRoot())
    const path = [user.node20, user.dshBin, '/usr/bin', '/bin'].join(delimiter)
    const { findings } = await doctorJson({ HOME: user.home, DSH_HOME: join(user.home, '.dsh'), PATH: path })
    expect(finding(findings, 'node').message).toMatch(/ v20\.11\.1 runs dsh; /)
    expect(findings.some((f) => f.check === 'path')).toBe(false)
  })
})

describe('doctor --help', () => {
  it('documents --no-write and which checks need DSH to write', async () => {
    const { code, stdout } = await runDoctor({ PATH: '/usr/bin:/bin' }, ['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain(
      '  --no-write        skip the checks that need DSH to write, even to a throwaway copy (compose, hmr-row, row)\n',
    )
  })
})

describe('the install fixes are one shell line for any app folder', { timeout: 600_000 }, () => {
  it('`cd <app> && …` reaches an app folder whose path has a space and a quote', async () => {
    const root = awkwardRoot()
    const home = join(root, 'home')
    const app = join(root, "it's my dsh app")
    const bin = join(app, 'node_modules', '.bin')
    const dshPackage = join(app, 'node_modules', '@deepseek-ai', 'dsh')
    for (const dir of [join(home, '.dsh'), bin, join(dshPackage, 'lib')]) mkdirSync(dir, { recursive: true })
    writeFileSync(join(app, 'package.json'), '{ "dependencies": { "@deepseek-ai/dsh": "0.1.0-rc.8" } }\n')
    writeFileSync(join(app, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n")
    writeFileSync(
      join(dshPackage, 'package.json'),
      '{ "name": "@deepseek-ai/dsh", "version": "0.1.0-rc.8" }\n',
    )
    writeFileSync(join(dshPackage, 'lib', 'bin.js'), '')
    // pnpm's shim, without the Node 22 beside it and without the pinned hmr: both install checks fail.
    executable(
      join(bin, 'dsh'),
      '#!/bin/sh\nbasedir=$(dirname "$0")\nif [ -x "$basedir/node" ]; then\n' +
        '  exec "$basedir/node" "$basedir/../@deepseek-ai/dsh/lib/bin.js" "$@"\nfi\n',
    )
    // Stand-ins for pnpm and npm that record where they ran and with what, instead of installing.
    const stubs = join(root, 'stubs')
    const log = join(root, 'calls.log')
    mkdirSync(stubs)
    for (const tool of ['pnpm', 'npm'])
      executable(join(stubs, tool), `#!/bin/sh\nprintf '%s|%s|%s\\n' "$(pwd)" ${tool} "$*" >> "$LOG"\n`)
    executable(join(stubs, 'node'), '#!/bin/sh\necho v20.11.1\n')
    const env = { HOME: home, DSH_HOME: join(home, '.dsh'), PATH: [stubs, bin, '/usr/bin', '/bin'].join(':') }
    const { findings } = await doctorJson(env)
    const node = finding(findings, 'node')
    const hmr = finding(findings, 'hmr-pin')
    expect(node.command).toBe(
      `cd '${root.replaceAll("'", "'\\''")}/it'\\''s my dsh app' && pnpm add node@22.23.3 --allow-build=node`,
    )
    for (const fix of [node, hmr]) pasteIntoBash(fix.command, { ...env, LOG: log })
    expect(readFileSync(log, 'utf8')).toBe(
      `${app}|pnpm|add node@22.23.3 --allow-build=node\n` +
        `${app}|npm|pkg set pnpm.overrides.@deepseek-ai/cordis-plugin-hmr=1.0.16\n` +
        `${app}|pnpm|install --no-frozen-lockfile\n`,
    )
  })
})
