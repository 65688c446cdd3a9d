import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { defaultCacheRoot } from './dsh-app.ts'
import {
  type LocalRegistry,
  type PublishedPackage,
  publishWorkspacePackages,
  startLocalRegistry,
} from './local-registry.ts'
import { WORKSPACE_ROOT } from './workspace-packages.ts'

const execFileAsync = promisify(execFile)

/**
 * The local registry the real-app rows install from, with its storage cached: publishing builds and packs every
 * publishable package (minutes on two cores), so a storage is kept under the cache root, keyed by a hash of every
 * file under `packages/` except `packages/testing/` (tracked or not, minus git-ignored ones), and reused while those
 * files are unchanged.
 */
export interface PublishedRegistry {
  readonly registry: LocalRegistry
  readonly fromCache: boolean
  /** Time to start the registry and, when not cached, publish. */
  readonly ms: number
  readonly packages: readonly PublishedPackage[]
}

/** sha256 over (path, content) of the files, in the order given. Pure apart from the reads. */
export async function hashFiles(root: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256')
  for (const file of files) {
    hash.update(`${file}\0`)
    hash.update(existsSync(join(root, file)) ? await readFile(join(root, file)) : '(deleted)')
    hash.update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/** Every file of the published packages: `packages/` minus `packages/testing/` (private fixtures, never published). */
async function packagesHash(): Promise<string> {
  const pathspec = ['packages', ':(exclude)packages/testing']
  const { stdout } = await execFileAsync(
    'git',
    ['ls-files', '-co', '--exclude-standard', '-z', '--', ...pathspec],
    {
      cwd: WORKSPACE_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  const files = stdout
    .split('\0')
    .filter((file) => file !== '')
    .sort()
  return hashFiles(WORKSPACE_ROOT, files)
}

export async function startPublishedRegistry(cacheRoot = defaultCacheRoot()): Promise<PublishedRegistry> {
  const started = performance.now()
  const storage = join(cacheRoot, 'dsh-harden', `registry-${await packagesHash()}`)
  // Written last, beside the storage (verdaccio owns the storage directory's contents).
  const record = `${storage}.json`
  if (existsSync(record)) {
    const registry = await startLocalRegistry({ storage })
    const packages = JSON.parse(await readFile(record, 'utf8')) as PublishedPackage[]
    return { registry, fromCache: true, ms: performance.now() - started, packages }
  }
  await rm(storage, { recursive: true, force: true })
  await mkdir(storage, { recursive: true })
  const registry = await startLocalRegistry({ storage })
  try {
    const packages = await publishWorkspacePackages(registry)
    await writeFile(record, `${JSON.stringify(packages)}\n`)
    return { registry, fromCache: false, ms: performance.now() - started, packages }
  } catch (error) {
    await registry.close()
    await rm(storage, { recursive: true, force: true })
    throw error
  }
}
