/**
 * What `pnpm pack` puts in each publishable package's tarball, read back from the tarball itself: the file a user's
 * import or command opens exists (JavaScript and declarations), no `workspace:` range survives, peers are satisfied by
 * what a DSH 0.1.0-rc.8 profile provides, and the DSH plugins declare their bundle patch.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import semver from 'semver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildPackages,
  entryPoints,
  type PackageManifest,
  packPackage,
  publishablePackages,
  type WorkspacePackage,
} from '../src/workspace-packages.ts'

const execFileAsync = promisify(execFile)

/** What a DSH 0.1.0-rc.8 profile resolves (the app's own install: `@deepseek-ai/dsh@0.1.0-rc.8`). */
const DSH_PROFILE_VERSIONS = { cordis: '4.0.4', dsh: '0.1.0-rc.8' }
/** The packages that are DSH plugins, and so must join a profile by `dsh plugin add` alone. */
const DSH_PLUGINS = [
  '@dsh-harden/lazy-mcp',
  '@dsh-harden/mcp-client',
  '@dsh-harden/overlay',
  '@dsh-harden/tool-bash',
  '@dsh-harden/tool-fs',
  '@dsh-harden/tool-pwsh',
]

interface Entry {
  readonly path: string
  readonly mode: string
}

interface Tarball {
  readonly pkg: WorkspacePackage
  readonly entries: ReadonlyMap<string, Entry>
  readonly manifest: PackageManifest
}

async function readTarball(pkg: WorkspacePackage, file: string): Promise<Tarball> {
  const { stdout: listing } = await execFileAsync('tar', ['-tvzf', file], { maxBuffer: 16 * 1024 * 1024 })
  const entries = new Map<string, Entry>()
  for (const line of listing.split('\n').filter(Boolean)) {
    const path = line.slice(line.lastIndexOf(' package/') + ' package/'.length)
    entries.set(path, { path, mode: line.split(' ')[0] ?? '' })
  }
  const { stdout: manifest } = await execFileAsync('tar', ['-xzOf', file, 'package/package.json'])
  return { pkg, entries, manifest: JSON.parse(manifest) as PackageManifest }
}

const relative = (target: string) => target.replace(/^\.\//, '')

/** The packed path of a manifest's `./client` export, when it is a plain path. */
function clientTarget(manifest: PackageManifest): string | undefined {
  const exports = (manifest.publishConfig?.exports ?? manifest.exports) as Record<string, unknown> | undefined
  const target = exports?.['./client']
  return typeof target === 'string' ? relative(target) : undefined
}

let scratch: string
let tarballs: Tarball[]

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'dsh-harden-tarballs-'))
  const packages = await publishablePackages()
  await buildPackages(packages)
  tarballs = []
  for (const pkg of packages)
    tarballs.push(await readTarball(pkg, await packPackage(pkg, scratch, { built: true })))
}, 900_000)

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

describe('publishable tarballs', () => {
  it('are every non-private workspace package, each with a README', () => {
    expect(tarballs.length).toBeGreaterThanOrEqual(11)
    const names = tarballs.map((tarball) => tarball.manifest.name)
    expect(names).toEqual(expect.arrayContaining(['@dsh-harden/cli', ...DSH_PLUGINS]))
    for (const tarball of tarballs) expect(tarball.entries.has('README.md'), tarball.pkg.name).toBe(true)
  })

  it('export only files that are in the tarball, each import target with its declarations', () => {
    for (const { pkg, entries, manifest } of tarballs) {
      const targets = entryPoints({ ...manifest, bin: {} })
      expect(targets.length, `${pkg.name} exports nothing`).toBeGreaterThan(0)
      // The `./client` target of a package with a `dsh.client` half is a browser bundle DSH's web shell loads, never
      // imported by TypeScript code, so it carries no declarations.
      const browserBundle = (manifest as { dsh?: { client?: unknown } }).dsh?.client
        ? clientTarget(manifest)
        : undefined
      for (const target of targets) {
        expect(entries.has(target), `${pkg.name}: exports ${target}, which is not packed`).toBe(true)
        expect(target, `${pkg.name}: exports TypeScript source ${target}`).not.toMatch(/(?<!\.d)\.ts$/)
        if (target.endsWith('.js') && target !== browserBundle)
          expect(
            entries.has(target.replace(/\.js$/, '.d.ts')),
            `${pkg.name}: no declarations for ${target}`,
          ).toBe(true)
      }
      expect(
        [...entries.keys()].filter((path) => path.startsWith('src/') || path.startsWith('tests/')),
      ).toEqual([])
    }
  })

  it('carry no workspace: range in any dependency field', () => {
    for (const { pkg, manifest } of tarballs) {
      const fields = manifest as unknown as Record<string, Record<string, string> | undefined>
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
        for (const [name, range] of Object.entries(fields[field] ?? {}))
          expect(range, `${pkg.name} ${field}.${name}`).not.toMatch(/^workspace:/)
      }
    }
  })

  it('ship executable bins that run the built code', () => {
    const withBin = tarballs.filter((tarball) => tarball.manifest.bin !== undefined)
    expect(withBin.map((tarball) => tarball.manifest.name)).toContain('@dsh-harden/cli')
    for (const { pkg, entries, manifest } of withBin) {
      for (const target of Object.values(manifest.bin ?? {})) {
        const entry = entries.get(relative(target))
        expect(entry, `${pkg.name}: bin ${target} is not packed`).toBeDefined()
        expect(entry?.mode, `${pkg.name}: bin ${target} is not executable`).toMatch(/^-rwx/)
      }
    }
  })

  it('ask for peers that a DSH 0.1.0-rc.8 profile satisfies', () => {
    for (const { pkg, manifest } of tarballs) {
      for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
        if (!name.startsWith('@deepseek-ai/')) continue
        const provided =
          name === '@deepseek-ai/cordis' ? DSH_PROFILE_VERSIONS.cordis : DSH_PROFILE_VERSIONS.dsh
        expect(
          semver.satisfies(provided, range),
          `${pkg.name}: peer ${name}@${range} misses ${provided}`,
        ).toBe(true)
      }
    }
  })

  it('declare a dsh.bundle patch for every DSH plugin, and bring no second copy of DSH into a profile', () => {
    const byName = new Map(tarballs.map((tarball) => [tarball.manifest.name, tarball]))
    for (const name of DSH_PLUGINS) {
      const tarball = byName.get(name)
      const patch = tarball?.manifest.dsh?.bundle?.patch
      expect(patch, `${name} declares no dsh.bundle.patch`).toBeDefined()
      expect(tarball?.entries.has(relative(patch ?? '')), `${name}: ${patch} is not packed`).toBe(true)
      // A profile installs with autoInstallPeers off and shares the app's DSH through peers; a DSH package among a
      // plugin's own (or its @dsh-harden dependencies') dependencies would load a second cordis next to the app's.
      const seen = new Set<string>()
      const queue = [name]
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        if (seen.has(next)) continue
        seen.add(next)
        const dependencies = Object.keys(byName.get(next)?.manifest.dependencies ?? {})
        expect(
          dependencies.filter((dependency) => dependency.startsWith('@deepseek-ai/')),
          `${name} via ${next}`,
        ).toEqual([])
        queue.push(...dependencies.filter((dependency) => byName.has(dependency)))
      }
    }
  })
})

describe('prepack', () => {
  it('builds dist before packing, so a pack without a build still ships code', async () => {
    const pkg = tarballs.find((tarball) => tarball.manifest.name === '@dsh-harden/escalation')?.pkg
    expect(pkg).toBeDefined()
    if (pkg === undefined) return
    const destination = join(scratch, 'with-prepack')
    const before = Date.now()
    // The package's own prepack (scripts/build-package.mjs) removes dist/ and compiles it again.
    const tarball = await readTarball(pkg, await packPackage(pkg, destination))
    expect((await stat(join(pkg.dir, 'dist/index.js'))).mtimeMs).toBeGreaterThanOrEqual(before - 1000)
    expect(tarball.entries.has('dist/index.js')).toBe(true)
    expect(tarball.entries.has('dist/index.d.ts')).toBe(true)
  }, 600_000)
})
