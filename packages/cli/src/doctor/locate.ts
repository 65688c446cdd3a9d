import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, delimiter, dirname, join, resolve } from 'node:path'

/** The first executable file called `name` in the directories of `path` (a PATH value), as a shell finds it. */
export function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    if (isExecutableFile(candidate)) return candidate
  }
  return undefined
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** A bin file's first 8 KB: enough for a shebang and for pnpm's shell shim. */
function head(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(0, 8192)
  } catch {
    return ''
  }
}

export function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** The nearest directory at or above `start` whose package.json satisfies `test`. */
function upTo(start: string, test: (manifest: Record<string, unknown>) => boolean): string | undefined {
  let dir = start
  for (;;) {
    const manifest = readJson(join(dir, 'package.json'))
    if (manifest !== undefined && test(manifest)) return dir
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/**
 * The files a bin runs: itself followed through symlinks (npm links `bin/dsh` to the package's script), and every
 * `"$basedir/….js"` target of a pnpm shell shim (`exec node "$basedir/../@deepseek-ai/dsh/lib/bin.js"`).
 */
function binTargets(bin: string): string[] {
  const targets: string[] = []
  try {
    targets.push(realpathSync(bin))
  } catch {
    return targets
  }
  for (const match of head(bin).matchAll(/"\$basedir\/([^"$]+\.[cm]?js)"/g)) {
    const target = resolve(dirname(bin), match[1]!)
    if (existsSync(target)) targets.push(realpathSync(target))
  }
  return targets
}

/** The directory of the `@deepseek-ai/dsh` package a `dsh` bin runs. */
export function dshPackageDir(bin: string): string | undefined {
  for (const target of binTargets(bin)) {
    const dir = upTo(dirname(target), (manifest) => manifest.name === '@deepseek-ai/dsh')
    if (dir !== undefined) return dir
  }
  return undefined
}

/** The project a user installed DSH into: the nearest package.json above the bin that depends on it. */
export function appDirOf(bin: string): string | undefined {
  return upTo(dirname(bin), (manifest) => {
    const dependencies = manifest.dependencies
    return typeof dependencies === 'object' && dependencies !== null && '@deepseek-ai/dsh' in dependencies
  })
}

/**
 * The `node` that runs a bin: pnpm's shim prefers an executable `node` beside it (`if [ -x "$basedir/node" ]`), an
 * absolute shebang names its interpreter, and `#!/usr/bin/env node` (npm's links) takes the first `node` on PATH.
 */
export function nodeRunning(bin: string, path: string): string | undefined {
  const text = head(bin)
  const beside = join(dirname(bin), 'node')
  if (text.includes('"$basedir/node"') && isExecutableFile(beside)) return beside
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text)
  if (shebang !== null && !/\/env$/.test(shebang[1]!) && !/\/(ba|da)?sh$/.test(shebang[1]!))
    return isExecutableFile(shebang[1]!) ? shebang[1] : undefined
  return findOnPath('node', path)
}

export interface ResolvedPackage {
  readonly dir: string
  readonly version: string | undefined
  readonly manifest: Record<string, unknown>
}

/**
 * The folders Node's `import` looks in from a file in `fromDir`: `node_modules` in it and in each folder above (a
 * folder that is itself `node_modules` gets none added), nearest first. Not the CommonJS global folders: an ES
 * module import never reads `NODE_PATH` (which `pnpm exec` sets for doctor itself).
 */
function nodeModulesWalk(fromDir: string): string[] {
  const walk: string[] = []
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') walk.push(join(dir, 'node_modules'))
    if (dirname(dir) === dir) return walk
  }
}

/**
 * Where Node finds `name` from a file in `fromDir`: the same node_modules walk DSH's loader and profile code use
 * (dsh-app-boot `packageDirFromAnchor`), without requiring the package to export `./package.json`.
 */
export function resolvePackage(fromDir: string, name: string): ResolvedPackage | undefined {
  for (const searchPath of nodeModulesWalk(fromDir)) {
    const dir = join(searchPath, name)
    const manifest = readJson(join(dir, 'package.json'))
    if (manifest === undefined) continue
    return { dir, version: typeof manifest.version === 'string' ? manifest.version : undefined, manifest }
  }
  return undefined
}
