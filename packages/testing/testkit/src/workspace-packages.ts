/**
 * The publishable packages of this workspace, and `pnpm pack` for one of them: what a user would get from the
 * registry. Used by `publishWorkspacePackages` (./local-registry.ts) and by the tarball tests.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** The workspace root (this file is `packages/testing/testkit/src/workspace-packages.ts`). */
export const WORKSPACE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')

/** One workspace package that is not `private`, i.e. one we publish. */
export interface WorkspacePackage {
  readonly name: string
  readonly version: string
  /** Absolute directory of the package. */
  readonly dir: string
}

/** The `package.json` fields the packaging checks read. */
export interface PackageManifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly exports?: Record<string, unknown>
  readonly publishConfig?: { readonly exports?: Record<string, unknown> }
  readonly bin?: Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly scripts?: Record<string, string>
  readonly dsh?: { readonly bundle?: { readonly patch?: string } }
}

export async function readManifest(dir: string): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest
}

/** Bounds for one `pnpm pack` (its `prepack` compiles the package with tsc). */
const PACK_TIMEOUT_MS = 240_000
const BUILD_TIMEOUT_MS = 600_000
const OUTPUT_LIMIT = 16 * 1024 * 1024

/** pnpm's own list of the workspace (its globs, not a copy of them), without the private packages. */
export async function publishablePackages(): Promise<readonly WorkspacePackage[]> {
  const { stdout } = await execFileAsync('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], {
    cwd: WORKSPACE_ROOT,
    timeout: 60_000,
    maxBuffer: OUTPUT_LIMIT,
  })
  const listed = JSON.parse(stdout) as { name?: string; version?: string; private?: boolean; path: string }[]
  return listed
    .filter((entry) => entry.private !== true && entry.path !== WORKSPACE_ROOT)
    .map((entry) => {
      if (entry.name === undefined || entry.version === undefined)
        throw new Error(
          `workspace package at ${entry.path} has no name or version: add them, or mark it "private": true`,
        )
      return { name: entry.name, version: entry.version, dir: entry.path }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Builds the packages' `dist` through turbo, once for all of them: turbo runs two at a time and replays unchanged
 * packages from its cache, where each package's own `prepack` would compile every package again.
 */
export async function buildPackages(packages: readonly WorkspacePackage[]): Promise<void> {
  const filters = packages.map((pkg) => `--filter=${pkg.name}`)
  try {
    await execFileAsync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters], {
      cwd: WORKSPACE_ROOT,
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: OUTPUT_LIMIT,
      killSignal: 'SIGKILL',
    })
  } catch (error) {
    throw new Error(
      `turbo run build of ${packages.length} packages failed: ${failureText(error, BUILD_TIMEOUT_MS)}`,
    )
  }
}

function failureText(error: unknown, timeoutMs: number): string {
  const failure = error as { stderr?: string; stdout?: string; killed?: boolean; message: string }
  const tail = `${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n')
  const why = failure.killed === true ? `timed out after ${timeoutMs} ms` : failure.message.split('\n')[0]
  return `${why}\n${tail}`
}

/** Every string leaf of an `exports` map, and `bin` targets: the files a user's import or command opens. */
export function entryPoints(manifest: PackageManifest): string[] {
  const leaves = (value: unknown): string[] => {
    if (typeof value === 'string') return [value.replace(/^\.\//, '')]
    if (value === null || typeof value !== 'object') return []
    return Object.values(value).flatMap(leaves)
  }
  return [...leaves(manifest.publishConfig?.exports ?? manifest.exports), ...leaves(manifest.bin)]
}

async function pnpmPack(
  pkg: WorkspacePackage,
  args: readonly string[],
): Promise<{ filename: string; files: string[] }> {
  try {
    const { stdout } = await execFileAsync('pnpm', ['pack', ...args, '--json'], {
      cwd: pkg.dir,
      timeout: PACK_TIMEOUT_MS,
      maxBuffer: OUTPUT_LIMIT,
      killSignal: 'SIGKILL',
    })
    // The prepack's own output comes first; pnpm's JSON report starts on a line of its own.
    const report = JSON.parse(stdout.slice(stdout.search(/^\{$/m))) as {
      filename: string
      files: { path: string }[]
    }
    return { filename: report.filename, files: report.files.map((file) => file.path) }
  } catch (error) {
    throw new Error(`pnpm pack of ${pkg.name} (${pkg.dir}) failed: ${failureText(error, PACK_TIMEOUT_MS)}`)
  }
}

/**
 * `pnpm pack` of one package into `destination`, exactly as `pnpm publish` would pack it: `workspace:` ranges become
 * versions and `publishConfig` fields replace the source ones. Its `prepack` builds `dist` first, unless `built` says
 * `buildPackages` just did; then a tarball that misses an entry point (another build of the same checkout was
 * rewriting `dist` at that moment) is packed once more through `prepack`. Returns the tarball path.
 */
export async function packPackage(
  pkg: WorkspacePackage,
  destination: string,
  options: { readonly built?: boolean } = {},
): Promise<string> {
  const manifest = await readManifest(pkg.dir)
  const args = ['--pack-destination', destination]
  let packed = await pnpmPack(pkg, options.built === true ? [...args, '--config.ignore-scripts=true'] : args)
  const missing = () => entryPoints(manifest).filter((target) => !packed.files.includes(target))
  if (options.built === true && missing().length > 0) packed = await pnpmPack(pkg, args)
  if (missing().length > 0)
    throw new Error(
      `pnpm pack of ${pkg.name} left out ${missing().join(', ')}: its build does not produce them`,
    )
  return resolve(destination, packed.filename)
}
