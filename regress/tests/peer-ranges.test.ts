import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { publishablePackages, readManifest, WORKSPACE_ROOT } from '@dsh-harden/testkit/workspace-packages'
import semver from 'semver'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * Every DSH release line users run (issue 14, item 6). A DSH install brings one copy of each `@deepseek-ai/*` package;
 * our peer ranges must admit the versions each line ships, and a peer is required (not `optional` in
 * `peerDependenciesMeta`) only when the package's own code loads it at run time. A DSH profile provides every package
 * of the app's closure through `$DSH_HOME/profiles/node_modules` (rc.8 dsh-app-boot `healProfilesModuleFallback`),
 * which pnpm in the profile does not see: each required peer is a `✕ missing peer` line in `dsh plugin add`.
 */
const RELEASE_LINES = [
  // The published app's closure: @deepseek-ai/dsh@0.1.0-rc.8 resolves cordis 4.0.4.
  { tag: 'dsh-v0.1.0-rc.8', dsh: '0.1.0-rc.8', cordis: '4.0.4' },
  // The newest tag: its packages are 0.1.1-rc.2 and it vendors cordis 4.0.1 (vendor/cordis/package.json).
  { tag: 'dsh-v0.1.1-rc.2', dsh: '0.1.1-rc.2', cordis: '4.0.1' },
] as const

function sourceFiles(dir: string): string[] {
  const files: string[] = []
  const stack = [dir]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const entry of readdirSync(next, { withFileTypes: true })) {
      const path = join(next, entry.name)
      if (entry.isDirectory()) stack.push(path)
      else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path)
    }
  }
  return files
}

/**
 * The bare specifiers a module loads at run time: static imports and re-exports that keep at least one value binding
 * (not `import type`, not only `type X` specifiers), side-effect imports, `import('…')`, and `resolve('…')`
 * (`createRequire(...).resolve`, which needs the package installed). Comments are not read.
 */
export function runtimeSpecifiers(source: string): Set<string> {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const found = new Set<string>()
  // One statement: from a line-initial `import`/`export` to its `from '…'`, never across another statement.
  const statements =
    /^\s*(import|export)\s+(type\s+)?((?:(?!\b(?:import|export)\b)[^'";=()])*?)\s*from\s*['"]([^'"]+)['"]/gm
  for (const match of code.matchAll(statements)) {
    const [, , typeOnly, clause = '', specifier = ''] = match
    if (typeOnly !== undefined) continue
    const braces = /\{([^}]*)\}/.exec(clause)
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, '')
      .trim()
    const values = (braces?.[1] ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '' && !part.startsWith('type '))
    if (outside !== '' || values.length > 0 || braces === null) found.add(specifier)
  }
  for (const match of code.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) found.add(match[1] ?? '')
  for (const match of code.matchAll(/\b(?:import|resolve)\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.add(match[1] ?? '')
  return found
}

interface Peers {
  readonly name: string
  readonly dir: string
  readonly peers: Record<string, string>
  readonly optional: ReadonlySet<string>
  readonly loaded: ReadonlySet<string>
}

let packages: Peers[] = []

beforeAll(async () => {
  packages = []
  for (const pkg of await publishablePackages()) {
    const manifest = (await readManifest(pkg.dir)) as Awaited<ReturnType<typeof readManifest>> & {
      peerDependenciesMeta?: Record<string, { optional?: boolean }>
    }
    const loaded = new Set<string>()
    for (const file of sourceFiles(join(pkg.dir, 'src')))
      for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) loaded.add(specifier)
    packages.push({
      name: pkg.name,
      dir: relative(WORKSPACE_ROOT, pkg.dir),
      peers: manifest.peerDependencies ?? {},
      optional: new Set(
        Object.entries(manifest.peerDependenciesMeta ?? {})
          .filter(([, meta]) => meta.optional === true)
          .map(([name]) => name),
      ),
      loaded,
    })
  }
}, 600_000)

describe('runtimeSpecifiers', () => {
  it('counts value imports, side effects, dynamic imports and resolves; not type-only imports or comments', () => {
    const source = [
      "import type { Context } from '@deepseek-ai/cordis'",
      "import { type JsonSchemaNode, validateJsonSchemaValue } from '@deepseek-ai/dsh-tools'",
      "import { type A, type B } from 'only-types'",
      "import Default from 'a-default'",
      "import * as ns from 'a-namespace'",
      "import 'side-effect'",
      "export { x } from 'reexported'",
      "export type { T } from 'reexported-type'",
      "const m = await import('dynamic')",
      "createRequire(import.meta.url).resolve('resolved')",
      'export interface Shape {\n  a: string\n}',
      "import type { Late } from 'type-after-interface'",
      "import {\n  first,\n  type Second,\n} from 'multi-line'",
      "// import { y } from 'commented'",
      "/** import { z } from 'doc-comment' */",
    ].join('\n')
    expect([...runtimeSpecifiers(source)].sort()).toEqual(
      [
        '@deepseek-ai/dsh-tools',
        'a-default',
        'a-namespace',
        'dynamic',
        'multi-line',
        'reexported',
        'resolved',
        'side-effect',
      ].sort(),
    )
  })
})

describe('peer ranges of the publishable packages', () => {
  it('find the DSH plugins (a package with @deepseek-ai peers)', () => {
    const withDshPeers = packages.filter((p) =>
      Object.keys(p.peers).some((n) => n.startsWith('@deepseek-ai/')),
    )
    expect(withDshPeers.map((p) => p.name)).toEqual(
      expect.arrayContaining(['@dsh-harden/overlay', '@dsh-harden/tool-bash', '@dsh-harden/mcp-client']),
    )
  })

  for (const line of RELEASE_LINES) {
    it(`admit every @deepseek-ai package version of ${line.tag}`, () => {
      const misses: string[] = []
      for (const pkg of packages) {
        for (const [name, range] of Object.entries(pkg.peers)) {
          if (!name.startsWith('@deepseek-ai/')) continue
          const version = name === '@deepseek-ai/cordis' ? line.cordis : line.dsh
          if (!semver.satisfies(version, range))
            misses.push(`${pkg.name}: ${name}@${range} misses ${version}`)
        }
      }
      expect(misses).toEqual([])
    })
  }

  it('do not admit a DSH line nobody tested (0.1.0-rc.7, 0.2.0)', () => {
    for (const pkg of packages)
      for (const [name, range] of Object.entries(pkg.peers)) {
        if (!name.startsWith('@deepseek-ai/dsh')) continue
        expect(semver.satisfies('0.1.0-rc.7', range), `${pkg.name} ${name}@${range}`).toBe(false)
        expect(semver.satisfies('0.2.0', range), `${pkg.name} ${name}@${range}`).toBe(false)
      }
  })

  it('mark a peer optional exactly when the package’s own code never loads it at run time', () => {
    const wrong: string[] = []
    for (const pkg of packages) {
      for (const name of Object.keys(pkg.peers)) {
        const needed = pkg.loaded.has(name)
        const optional = pkg.optional.has(name)
        if (needed && optional)
          wrong.push(`${pkg.name} (${pkg.dir}): ${name} is loaded at run time but optional`)
        if (!needed && !optional)
          wrong.push(
            `${pkg.name} (${pkg.dir}): ${name} is required but src/ only uses its types (or nothing)`,
          )
      }
    }
    expect(wrong).toEqual([])
  })

  it('keep the runtime peers this page documents (overlay → dsh-tools, mcp-client → dsh-mcp-client)', () => {
    const required = packages.flatMap((pkg) =>
      Object.keys(pkg.peers)
        .filter((name) => !pkg.optional.has(name))
        .map((name) => `${pkg.name} → ${name}`),
    )
    expect(required.sort()).toEqual([
      '@dsh-harden/mcp-client → @deepseek-ai/dsh-mcp-client',
      '@dsh-harden/overlay → @deepseek-ai/dsh-tools',
    ])
  })
})
