/**
 * The install route a user takes once we publish, run against a real local verdaccio: our packages published to it,
 * then installed into an empty project by pnpm with nothing but the scope line in its `.npmrc`, and used on Node 22
 * (the workspace's `node@22.23.3` npm package, the one this test runs on).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type LocalRegistry,
  type PublishedPackage,
  publishWorkspacePackages,
  scopeNpmrc,
  startLocalRegistry,
} from '../src/local-registry.ts'

const execFileAsync = promisify(execFile)

/** The user's environment minus the npm/pnpm run context of this test (`npm_config_*` would steer the install). */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(npm_|pnpm_)/i.test(key)) env[key] = value
  // Node 22 first, the way `npx -p node@22` or an installed Node 22 would put it.
  env.PATH = [dirname(process.execPath), env.PATH ?? ''].join(delimiter)
  return env
}

async function run(command: string, args: readonly string[], cwd: string, timeout = 120_000) {
  return execFileAsync(command, [...args], {
    cwd,
    env: userEnv(),
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 1 << 24,
  })
}

let registry: LocalRegistry
let published: readonly PublishedPackage[]
let progress: string[]
let project: string

beforeAll(async () => {
  registry = await startLocalRegistry()
  progress = []
  published = await publishWorkspacePackages(registry, (line) => progress.push(line))
  project = await mkdtemp(join(tmpdir(), 'dsh-harden-user-project-'))
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true })}\n`,
  )
  await writeFile(join(project, '.npmrc'), scopeNpmrc(registry))
  await run(
    'pnpm',
    ['add', '@dsh-harden/cli', '@dsh-harden/overlay', '@dsh-harden/mcp-client'],
    project,
    600_000,
  )
}, 1_500_000)

afterAll(async () => {
  await registry?.close()
  if (project !== undefined) await rm(project, { recursive: true, force: true })
})

describe('local registry', () => {
  it('says what it is doing while it builds and publishes: the build, then one line per package with its count', () => {
    expect(progress[0]).toMatch(/^building \d+ packages/)
    expect(progress[1]).toMatch(/^built in \d+ s/)
    expect(progress.slice(2)).toEqual(
      published.map(
        (pkg, index) => `published ${pkg.name}@${pkg.version} (${index + 1}/${published.length})`,
      ),
    )
  })

  it('serves every publishable package at its workspace version, and only our scope', async () => {
    expect(published.map((pkg) => pkg.name)).toEqual(
      expect.arrayContaining([
        '@dsh-harden/cli',
        '@dsh-harden/overlay',
        '@dsh-harden/tools',
        '@dsh-harden/mcp-client',
      ]),
    )
    for (const pkg of published) {
      const response = await fetch(new URL(pkg.name.replace('/', '%2f'), registry.url))
      const body = (await response.json()) as { versions: Record<string, unknown> }
      expect(Object.keys(body.versions), pkg.name).toContain(pkg.version)
    }
    // No uplink: a package we did not publish is not fetched from anywhere.
    expect((await fetch(new URL('left-pad', registry.url))).status).toBe(404)
    expect(scopeNpmrc(registry)).toBe(`@dsh-harden:registry=${registry.url}\n`)
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  })

  it('installs the CLI so that npx dsh-harden and npx @dsh-harden/cli run on Node 22', async () => {
    const installed = JSON.parse(
      await readFile(join(project, 'node_modules/@dsh-harden/cli/package.json'), 'utf8'),
    )
    expect(installed.version).toBe(published.find((pkg) => pkg.name === '@dsh-harden/cli')?.version)
    for (const command of [
      ['dsh-harden', '--help'],
      ['@dsh-harden/cli', '--help'],
    ]) {
      const { stdout } = await run('npx', ['--no-install', ...command], project)
      expect(stdout, command.join(' ')).toMatch(/lint/)
      expect(stdout, command.join(' ')).toMatch(/mcp/)
    }
  })

  it('installs plugins whose default export is the plugin a DSH profile row names', async () => {
    const probe = `
      const overlay = await import('@dsh-harden/overlay')
      const early = await import('@dsh-harden/overlay/early')
      const intake = await import('@dsh-harden/mcp-client')
      const plugins = [overlay.default, early.default, intake.default]
      console.log(JSON.stringify(plugins.map((plugin) => [plugin.name, typeof plugin.apply])))`
    const { stdout } = await run('node', ['--input-type=module', '--eval', probe], project)
    const plugins = JSON.parse(stdout) as [string, string][]
    expect(plugins.map(([, apply]) => apply)).toEqual(['function', 'function', 'function'])
    expect(plugins[2]?.[0]).toBe('dsh-harden-mcp-intake')
    for (const name of ['overlay', 'mcp-client'])
      expect(existsSync(join(project, 'node_modules/@dsh-harden', name, 'cordis.patch.yml'))).toBe(true)
  })

  it('stops verdaccio on close: the port refuses and close can be called again', async () => {
    const other = await startLocalRegistry()
    expect((await fetch(new URL('-/ping', other.url))).ok).toBe(true)
    await other.close()
    await expect(fetch(new URL('-/ping', other.url))).rejects.toThrow()
    await other.close()
  })
})
