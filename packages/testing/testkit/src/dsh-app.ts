import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/**
 * The real DeepSeek Harness app, `@deepseek-ai/dsh@0.1.0-rc.8`, run the way its users run it: installed with pnpm,
 * booted headless with `dsh --profile <p> "<prompt>"` against a DSH home of our own, plugins added with DSH's own
 * `dsh plugin --profile <p> add` (apps/cli/src/plugin.ts `runPlugin`, a pnpm forwarder in the profile directory).
 *
 * Recipe (shared/research/feasibility.md §5): rc.8 declares `@deepseek-ai/cordis-plugin-hmr@^1.0.16`, which resolves
 * to 1.0.19 — that version has no `registerConfig()` and rc.8 crashes at boot — so the install pins it to 1.0.16 with
 * a pnpm override; the app needs Node 22, so the npm `node@22.23.3` package is installed beside it (its bin directory
 * goes first on the child's PATH, and pnpm's `dsh` shim prefers the `node` next to it).
 */
export const DSH_APP_VERSION = '0.1.0-rc.8'
export const DSH_APP_NODE_VERSION = '22.23.3'

/** The package.json the app is installed from; its hash names the cache directory. */
export function dshAppManifest(): Record<string, unknown> {
  return {
    name: 'dsh-harden-dsh-app',
    private: true,
    dependencies: { '@deepseek-ai/dsh': DSH_APP_VERSION, node: DSH_APP_NODE_VERSION },
    pnpm: {
      overrides: { '@deepseek-ai/cordis-plugin-hmr': '1.0.16' },
      // Only `node` needs its install script (it places the binary). The app's own skipped scripts (node-pty, koffi,
      // dsh-subprocess-local, protobufjs, @google/genai) are not needed: bash, write and edit run without them.
      onlyBuiltDependencies: ['node'],
    },
  }
}

/** `<cache root>/dsh-harden/dsh-app-<first 16 hex of sha256(manifest)>`. Pure. */
export function dshAppDir(cacheRoot: string, manifest: Record<string, unknown> = dshAppManifest()): string {
  const hash = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 16)
  return join(cacheRoot, 'dsh-harden', `dsh-app-${hash}`)
}

/** `$XDG_CACHE_HOME`, else `~/.cache`. */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  return xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache')
}

export interface DshApp {
  /** The install directory (holds package.json and node_modules). */
  readonly dir: string
  /** `node_modules/.bin`: `dsh` and Node 22's `node`. */
  readonly binDir: string
  /** How long `ensureDshApp` took (the pnpm install, or only the completeness check when cached). */
  readonly installMs: number
  /** True when a complete install was already in the cache. */
  readonly fromCache: boolean
}

/** Written last by a successful install; an install directory without it is incomplete and gets reinstalled. */
const COMPLETE_MARKER = '.dsh-harden-complete'

function isComplete(dir: string): boolean {
  const binDir = join(dir, 'node_modules', '.bin')
  return (
    existsSync(join(dir, COMPLETE_MARKER)) &&
    existsSync(join(binDir, 'dsh')) &&
    existsSync(join(binDir, 'node')) &&
    existsSync(join(dir, 'node_modules', '@deepseek-ai', 'dsh', 'package.json'))
  )
}

export interface EnsureOptions {
  /** Default: `defaultCacheRoot()`. */
  readonly cacheRoot?: string
  /** Bound on the pnpm install. Default 5 min (a cold install takes ~30 s here). */
  readonly timeoutMs?: number
  /** The install's pnpm output goes here (appended). */
  readonly logFile?: string
}

/** Installs the app into its cache directory, or reuses a complete install there. */
export async function ensureDshApp(options: EnsureOptions = {}): Promise<DshApp> {
  const started = performance.now()
  const manifest = dshAppManifest()
  const dir = dshAppDir(options.cacheRoot ?? defaultCacheRoot(), manifest)
  const binDir = join(dir, 'node_modules', '.bin')
  if (isComplete(dir)) return { dir, binDir, installMs: performance.now() - started, fromCache: true }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const run = await runBounded('pnpm', ['install', '--reporter=append-only'], {
    cwd: dir,
    env: childEnv(process.env),
    timeoutMs: options.timeoutMs ?? 300_000,
    logFile: options.logFile,
    label: `pnpm install in ${dir}`,
  })
  if (run.exitCode !== 0 || !existsSync(join(binDir, 'dsh')) || !existsSync(join(binDir, 'node'))) {
    throw new Error(
      `installing @deepseek-ai/dsh@${DSH_APP_VERSION} into ${dir} failed (${describeExit(run)}); ` +
        `pnpm's output is in ${options.logFile ?? 'the install log'}. Fix: check that the npm registry is reachable ` +
        `and that pnpm works in ${dir}, then rerun (an incomplete install is removed and redone).`,
    )
  }
  const installMs = performance.now() - started
  writeFileSync(join(dir, COMPLETE_MARKER), `${JSON.stringify({ installMs: Math.round(installMs) })}\n`)
  return { dir, binDir, installMs, fromCache: false }
}

/**
 * The environment of a child that runs the app: the caller's, minus DSH's and DeepSeek's own variables (a user's
 * `DSH_HOME` or real API key must never leak into a run), minus anything that looks like a secret, minus the npm/pnpm
 * run context of the caller (`npm_*`: `pnpm regress` sets dozens, and pnpm inside `dsh plugin add` would read them),
 * plus `extra`. The caller's PATH is kept behind `pathFirst`. Pure.
 */
export function childEnv(
  base: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> = {},
  pathFirst: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (/^(DSH_|DEEPSEEK_|npm_)/i.test(key)) continue
    if (/TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|AUTH/i.test(key)) continue
    env[key] = value
  }
  const path = [...pathFirst, env.PATH ?? ''].filter((part) => part !== '').join(delimiter)
  return { ...env, PATH: path, ...extra }
}

export interface DshHome {
  /** The temp directory holding the home, the workspace, and any fixture files a run writes. */
  readonly root: string
  /** `DSH_HOME` for the runs. */
  readonly dir: string
  /** A workspace directory (the session's cwd and sandbox workspace root). */
  readonly workspace: string
  /** Where every child's stdout/stderr of this home is appended. */
  readonly logFile: string
  close(): void
}

/**
 * A fresh DSH home (and a workspace beside it) in a temp directory; `close()` removes both. Children's output is
 * appended to `logFile` (default: `app.log` in the temp directory, removed with it).
 */
export function createDshHome(
  options: { readonly logFile?: string; readonly prefix?: string } = {},
): DshHome {
  const root = mkdtempSync(join(tmpdir(), options.prefix ?? 'dsh-harden-app-'))
  const dir = join(root, 'home')
  const workspace = join(root, 'workspace')
  mkdirSync(dir)
  mkdirSync(workspace)
  return {
    root,
    dir,
    workspace,
    logFile: options.logFile ?? join(root, 'app.log'),
    close: () => rmSync(root, { recursive: true, force: true }),
  }
}

/** The bundle layers of DSH's shipped `headless` template (dsh-app-boot `PROFILE_TEMPLATES.headless`). */
export const HEADLESS_BUNDLES = ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless'] as const

/**
 * rc.8 refuses to boot a profile without this row: `user patch-layer watching requires the Cordis HMR service`.
 */
export const HMR_ROW = '- id: hmr\n  disabled: false\n'

export interface ProfileSpec {
  /** The profile's user layer (`cordis.patch.yml`) after the `hmr` row: YAML list items. */
  readonly patch?: string
  /** Bundle layers, in order (`dsh.profile.bundles`); default: the headless template. */
  readonly bundles?: readonly string[]
  /** Dependencies already in the profile (e.g. a `file:` plugin); `dsh plugin add` adds more. */
  readonly dependencies?: Readonly<Record<string, string>>
  /** The profile's `.npmrc` (e.g. the scope line of a local registry). */
  readonly npmrc?: string
}

/** `$DSH_HOME/profiles/<name>`. */
export function profileDir(home: DshHome, name: string): string {
  return join(home.dir, 'profiles', name)
}

/**
 * Writes a profile the way `dsh plugin` would initialize it (dsh-app-boot `initProfile`: package.json with
 * `dsh.profile.bundles`, a pnpm-workspace.yaml with the hoisted linker), plus its user layer. An existing profile keeps
 * its dependencies and bundle layers (what `dsh plugin add` installed) unless `spec` names them.
 */
export function writeProfile(home: DshHome, name: string, spec: ProfileSpec = {}): string {
  const dir = profileDir(home, name)
  mkdirSync(dir, { recursive: true })
  const manifestPath = join(dir, 'package.json')
  const existing = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        dependencies?: Record<string, string>
        dsh?: { profile?: { bundles?: string[] } }
      })
    : undefined
  const manifest = {
    name: `dsh-profile-${name}`,
    private: true,
    ...existing,
    dependencies: { ...existing?.dependencies, ...spec.dependencies },
    dsh: { profile: { bundles: [...(spec.bundles ?? existing?.dsh?.profile?.bundles ?? HEADLESS_BUNDLES)] } },
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    join(dir, 'pnpm-workspace.yaml'),
    'packages:\n  - .\n\nnodeLinker: hoisted\nautoInstallPeers: false\n',
  )
  if (spec.npmrc !== undefined) writeFileSync(join(dir, '.npmrc'), spec.npmrc)
  writeUserLayer(home, name, spec.patch)
  return dir
}

/** Replaces only the profile's user layer (`cordis.patch.yml`): the `hmr` row, then `rows`. */
export function writeUserLayer(home: DshHome, name: string, rows?: string): void {
  writeFileSync(join(profileDir(home, name), 'cordis.patch.yml'), profilePatch(rows))
}

/** The user layer: the `hmr` row, then `rows` (YAML list items). Pure. */
export function profilePatch(rows = ''): string {
  const body = rows.trim() === '' ? '' : `${rows.replace(/\s+$/, '')}\n`
  return `${HMR_ROW}${body}`
}

export interface ChildRun {
  /** `null` when the child was killed. */
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly ms: number
  readonly stdout: string
  readonly stderr: string
}

export function describeExit(run: ChildRun): string {
  if (run.timedOut) return `timed out after ${Math.round(run.ms)} ms`
  return run.signal !== null ? `killed by ${run.signal}` : `exit ${run.exitCode}`
}

interface BoundedOptions {
  readonly cwd: string
  readonly env: Record<string, string>
  readonly timeoutMs: number
  readonly logFile?: string | undefined
  readonly label: string
}

/** Keeps at most this many characters of each stream (the tail); the log file gets everything. */
const STREAM_LIMIT = 1_000_000

/**
 * Runs a child in its own process group, bounded by `timeoutMs` (the whole group is killed then, so MCP servers or
 * shells it started go too), with stdout/stderr captured and appended to `logFile` under a header line.
 */
export function runBounded(
  command: string,
  args: readonly string[],
  options: BoundedOptions,
): Promise<ChildRun> {
  const started = performance.now()
  if (options.logFile !== undefined)
    appendFileSync(options.logFile, `\n=== ${options.label}: ${command} ${args.join(' ')}\n`)
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const keep = (text: string, chunk: Buffer) => (text + chunk.toString('utf8')).slice(-STREAM_LIMIT)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = keep(stdout, chunk)
      if (options.logFile !== undefined) appendFileSync(options.logFile, chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = keep(stderr, chunk)
      if (options.logFile !== undefined) appendFileSync(options.logFile, chunk)
    })
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, options.timeoutMs)
    const finish = (exitCode: number | null, signal: string | null) => {
      clearTimeout(timer)
      // Anything the child left behind in its group (a stray MCP server) goes with it.
      killGroup()
      const ms = performance.now() - started
      if (options.logFile !== undefined) {
        appendFileSync(
          options.logFile,
          `=== ${options.label}: exit ${exitCode} signal ${signal} after ${Math.round(ms)} ms\n`,
        )
      }
      resolve({ exitCode, signal, timedOut, ms, stdout, stderr })
    }
    child.on('error', (error) => {
      stderr += `${error.message}\n`
      finish(null, null)
    })
    child.on('close', finish)
  })
}

export interface HeadlessOptions {
  readonly profile: string
  readonly prompt: string
  /** The local DeepSeek-compatible endpoint (`DEEPSEEK_BASE_URL`). */
  readonly baseURL: string
  /** Extra patch-list overlays (`--patch <file>`), applied after the profile layer. */
  readonly patches?: readonly string[] | undefined
  /** Extra environment for the app (e.g. `DSH_PERMISSION_MODE`). */
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Default 90 s. */
  readonly timeoutMs?: number
  /**
   * A command the app runs under, as words placed before `dsh` (e.g. `cpuTimeWrapper(file)` from `./app-cpu`, which
   * records the CPU the app and the children it reaped used). Default: none, `dsh` is spawned directly.
   */
  readonly wrapper?: readonly string[] | undefined
}

/** A dummy key: the local endpoint ignores it, and DSH refuses to send a request without one. */
const LOCAL_API_KEY = 'sk-dsh-harden-local'

function appEnv(
  app: DshApp,
  home: DshHome,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return childEnv(process.env, { DSH_HOME: home.dir, ...extra }, [app.binDir])
}

/** One headless turn: `dsh --profile <p> [--patch f]… "<prompt>"` in the home's workspace. */
export function runHeadless(app: DshApp, home: DshHome, options: HeadlessOptions): Promise<ChildRun> {
  const patchArgs = (options.patches ?? []).flatMap((file) => ['--patch', file])
  const dsh = [join(app.binDir, 'dsh'), '--profile', options.profile, ...patchArgs, options.prompt]
  const [command = '', ...args] = [...(options.wrapper ?? []), ...dsh]
  return runBounded(command, args, {
    cwd: home.workspace,
    env: appEnv(app, home, {
      DEEPSEEK_API_KEY: LOCAL_API_KEY,
      DEEPSEEK_BASE_URL: options.baseURL,
      ...options.env,
    }),
    timeoutMs: options.timeoutMs ?? 90_000,
    logFile: home.logFile,
    label: `dsh --profile ${options.profile}`,
  })
}

/** `dsh plugin --profile <p> add <packages…>`: DSH's own install route (pnpm in the profile directory). */
export function pluginAdd(
  app: DshApp,
  home: DshHome,
  profile: string,
  packages: readonly string[],
  timeoutMs = 180_000,
): Promise<ChildRun> {
  return runBounded(join(app.binDir, 'dsh'), ['plugin', '--profile', profile, 'add', ...packages], {
    cwd: home.workspace,
    env: appEnv(app, home),
    timeoutMs,
    logFile: home.logFile,
    label: `dsh plugin --profile ${profile} add`,
  })
}
