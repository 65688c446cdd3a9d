/**
 * A real npm registry on this machine: verdaccio (pinned in this package) on a free 127.0.0.1 port, with a temporary
 * storage and no uplink, so `@dsh-harden/*` resolves only to what this workspace published to it. Every other package
 * still comes from the user's normal registry: `scopeNpmrc` routes only our scope here.
 *
 * This is the route a user takes once we publish (`dsh plugin --profile <p> add @dsh-harden/overlay`, `npx
 * @dsh-harden/cli`), run before publication: DSH's `dsh plugin add` (rc.8 `apps/cli/src/plugin.ts`, `runPlugin`)
 * forwards to pnpm in the profile directory, and pnpm resolves each of our packages' dependencies on each other from
 * the registry, so tarballs alone 404.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { stopChild } from '@dsh-harden/mcp-client/fixtures'
import { READY_PREFIX } from './registry-server.ts'
import { buildPackages, packPackage, publishablePackages } from './workspace-packages.ts'

const execFileAsync = promisify(execFile)

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`, with the trailing slash npm and pnpm expect. */
  readonly url: string
  close(): Promise<void>
}

export interface PublishedPackage {
  readonly name: string
  readonly version: string
}

/** The scope this registry serves; nothing else is published to it or proxied by it. */
export const REGISTRY_SCOPE = '@dsh-harden'

const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 5_000
const PUBLISH_TIMEOUT_MS = 60_000
/** How much of verdaccio's output a start failure quotes. */
const OUTPUT_TAIL = 4_000

const SERVER_ENTRY = fileURLToPath(new URL('./registry-server.ts', import.meta.url))

/** Anyone reads and only a registered user publishes; no `proxy`, so nothing is fetched from outside. */
function verdaccioConfig(storage: string, htpasswd: string): string {
  const config = {
    storage,
    auth: { htpasswd: { file: htpasswd, max_users: 100 } },
    uplinks: {},
    packages: {
      [`${REGISTRY_SCOPE}/*`]: { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    },
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'error' },
  }
  // JSON is YAML, and verdaccio reads its config file as YAML.
  return `${JSON.stringify(config, null, 2)}\n`
}

/** The child keeps only what running Node needs: no tokens or keys of the caller's reach verdaccio. */
function serverEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, NODE_ENV: 'production' }
}

function waitForReady(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const fail = (why: string) => {
      clearTimeout(timer)
      reject(new Error(`local registry: verdaccio ${why}\n${output().slice(-OUTPUT_TAIL)}`))
    }
    const timer = setTimeout(() => fail(`did not listen within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      const line = buffered.split('\n').find((candidate) => candidate.startsWith(READY_PREFIX))
      if (line === undefined) return
      clearTimeout(timer)
      resolve(line.slice(READY_PREFIX.length).trim())
    })
    child.once('error', (error) => fail(`could not be spawned (${error.message})`))
    child.once('exit', (code, signal) => fail(`exited before listening (${signal ?? `exit ${code}`})`))
  })
}

/**
 * Starts a real verdaccio on a free 127.0.0.1 port with a temp storage; no uplink for @dsh-harden/*. `port` asks for a
 * fixed port instead (a URL that stays the same across runs, for a hand-written `.npmrc`).
 */
export async function startLocalRegistry(options?: {
  readonly storage?: string
  readonly port?: number
}): Promise<LocalRegistry> {
  const work = await mkdtemp(join(tmpdir(), 'dsh-harden-registry-'))
  const storage = options?.storage ?? join(work, 'storage')
  await mkdir(storage, { recursive: true })
  const configPath = join(work, 'config.yaml')
  await writeFile(configPath, verdaccioConfig(storage, join(work, 'htpasswd')))

  const child = spawn(process.execPath, [SERVER_ENTRY, configPath, String(options?.port ?? 0)], {
    cwd: work,
    env: serverEnv(work),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)

  const cleanUp = async () => {
    await stopChild(child, STOP_TIMEOUT_MS)
    await rm(work, { recursive: true, force: true })
  }
  let url: string
  try {
    url = await waitForReady(child, () => output)
  } catch (error) {
    await cleanUp()
    throw error
  }
  let closed: Promise<void> | undefined
  return {
    url,
    close: () => {
      closed ??= cleanUp()
      return closed
    },
  }
}

/** The .npmrc line(s) that make a DSH profile (or any npm/pnpm project) resolve @dsh-harden/* from it. */
export function scopeNpmrc(registry: LocalRegistry): string {
  return `${REGISTRY_SCOPE}:registry=${registry.url}\n`
}

/** `//127.0.0.1:<port>/`, the prefix npm keys a registry's credentials by. */
function credentialKey(url: string): string {
  return url.replace(/^https?:/, '')
}

/** Registers a throw-away user (verdaccio's htpasswd in the registry's temp dir) and returns its token. */
async function publisherToken(registry: LocalRegistry): Promise<string> {
  const name = `publisher-${randomBytes(6).toString('hex')}`
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, registry.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomBytes(18).toString('hex') }),
    signal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS),
  })
  const body = (await response.json()) as { token?: string; error?: string }
  if (!response.ok || body.token === undefined)
    throw new Error(
      `local registry at ${registry.url} refused to create a publisher: ${response.status} ${body.error ?? ''}`,
    )
  return body.token
}

/** Runs npm against the registry with a temp userconfig and cache: the user's ~/.npmrc and ~/.npm are never touched. */
async function npm(args: readonly string[], registry: LocalRegistry, scratch: string): Promise<void> {
  const env = { PATH: process.env.PATH ?? '', HOME: scratch }
  const common = [
    '--registry',
    registry.url,
    '--userconfig',
    join(scratch, '.npmrc'),
    '--cache',
    join(scratch, 'npm-cache'),
  ]
  try {
    await execFileAsync('npm', [...args, ...common], {
      cwd: scratch,
      env,
      timeout: PUBLISH_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    })
  } catch (error) {
    const failure = error as { stderr?: string; killed?: boolean; message: string }
    const why =
      failure.killed === true
        ? `timed out after ${PUBLISH_TIMEOUT_MS} ms`
        : (failure.stderr ?? failure.message)
    throw new Error(
      `npm ${args.join(' ')} at ${registry.url} failed: ${why.trim().split('\n').slice(-12).join('\n')}`,
    )
  }
}

/** Whether the registry already holds `name@version` (a reused `storage`). */
async function holds(registry: LocalRegistry, pkg: PublishedPackage): Promise<boolean> {
  const response = await fetch(new URL(pkg.name.replace('/', '%2f'), registry.url), {
    signal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS),
  })
  if (response.status === 404) return false
  const body = (await response.json()) as { versions?: Record<string, unknown> }
  return body.versions?.[pkg.version] !== undefined
}

/**
 * Builds (if needed), packs and publishes every publishable workspace package to the registry. `onProgress` hears a
 * line at each stage (a cold build of the checkout takes minutes, and a silent command looks hung).
 */
export async function publishWorkspacePackages(
  registry: LocalRegistry,
  onProgress: (line: string) => void = () => {},
): Promise<readonly PublishedPackage[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'dsh-harden-publish-'))
  try {
    const token = await publisherToken(registry)
    await writeFile(join(scratch, '.npmrc'), `${credentialKey(registry.url)}:_authToken=${token}\n`, {
      mode: 0o600,
    })
    const packages = await publishablePackages()
    const started = performance.now()
    onProgress(
      `building ${packages.length} packages (tsc; a few minutes on a fresh checkout, seconds once built)…`,
    )
    await buildPackages(packages)
    onProgress(`built in ${((performance.now() - started) / 1000).toFixed(0)} s; packing and publishing…`)
    const published: PublishedPackage[] = []
    for (const pkg of packages) {
      const tarball = await packPackage(pkg, scratch, { built: true })
      // A reused storage keeps what an earlier run published: replace it, so the registry serves this checkout.
      if (await holds(registry, pkg))
        await npm(['unpublish', `${pkg.name}@${pkg.version}`, '--force'], registry, scratch)
      await npm(['publish', tarball, '--access', 'public'], registry, scratch)
      published.push({ name: pkg.name, version: pkg.version })
      onProgress(`published ${pkg.name}@${pkg.version} (${published.length}/${packages.length})`)
    }
    return published
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
