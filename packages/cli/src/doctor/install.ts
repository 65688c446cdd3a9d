import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Finding, type Fix, failure, ok, warning } from './finding.ts'
import {
  appDirOf,
  dshPackageDir,
  findOnPath,
  nodeRunning,
  type ResolvedPackage,
  resolvePackage,
} from './locate.ts'
import { shell } from './shell.ts'

/** The DSH lines our packages are built and tested against. */
export const SUPPORTED_DSH = ['0.1.0-rc.8', '0.1.1-rc.2'] as const
/** The version INSTALL.md pins, and the hmr release rc.8 boots with. */
export const PINNED_DSH = '0.1.0-rc.8'
export const PINNED_HMR = '1.0.16'
const HMR = '@deepseek-ai/cordis-plugin-hmr'
/** DSH 0.1.0-rc.8 requires Node >= 22.19 (`Promise.withResolvers`, `process.features.typescript`). */
const MIN_NODE: readonly [number, number] = [22, 19]

/** What the install checks found, for the profile checks that follow. */
export interface DshInstall {
  readonly bin: string
  readonly packageDir: string
  readonly version: string | undefined
}

export interface InstallOptions {
  /** `--dsh`: the dsh executable; default: `dsh` on `path`. */
  readonly bin?: string | undefined
  /** The PATH the user's own shell runs `dsh` with (see user-env.ts). */
  readonly path: string
}

const INSTALL_FIX =
  'install DSH as INSTALL.md step 1 says (a folder with @deepseek-ai/dsh@0.1.0-rc.8, node@22.23.3 and pnpm, ' +
  'installed with pnpm), then `export PATH="<that folder>/node_modules/.bin:$PATH"`; or pass --dsh <path to dsh>'

/** Checks the `dsh` a user runs: where it is, which Node runs it, its version, and its hmr plugin. */
export function checkInstall(options: InstallOptions, findings: Finding[]): DshInstall | undefined {
  const bin = options.bin ?? findOnPath('dsh', options.path)
  if (bin === undefined) {
    findings.push(failure('dsh', 'no `dsh` on PATH', INSTALL_FIX, 'dsh'))
    return undefined
  }
  if (!existsSync(bin)) {
    findings.push(failure('dsh', `${bin} does not exist`, INSTALL_FIX, 'dsh'))
    return undefined
  }
  const packageDir = dshPackageDir(bin)
  if (packageDir === undefined) {
    findings.push(
      failure(
        'dsh',
        `${bin} does not run the @deepseek-ai/dsh package (none found from it)`,
        INSTALL_FIX,
        'dsh',
      ),
    )
    return undefined
  }
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown }
  const version = typeof manifest.version === 'string' ? manifest.version : undefined
  findings.push(ok('dsh', `${bin} runs @deepseek-ai/dsh ${version ?? '(no version)'} from ${packageDir}`))
  checkNode(bin, options.path, findings)
  checkVersion(version, findings)
  checkHmr(bin, packageDir, version, findings)
  return { bin, packageDir, version }
}

function checkNode(bin: string, path: string, findings: Finding[]): void {
  const node = nodeRunning(bin, path)
  const fix = nodeFix(bin)
  if (node === undefined) {
    findings.push(failure('node', `no \`node\` runs ${bin} (none beside it, none on PATH)`, fix, 'dsh'))
    return
  }
  let version: string
  try {
    version = execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim()
  } catch (error) {
    findings.push(
      failure('node', `${node} (which runs dsh) did not answer --version: ${String(error)}`, fix, 'dsh'),
    )
    return
  }
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  const enough = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])
  if (enough) findings.push(ok('node', `${node} ${version} runs dsh (DSH needs >= 22.19)`))
  else
    findings.push(
      failure(
        'node',
        `${node} ${version} runs dsh; DSH needs Node >= 22.19 and does not start on ${version}`,
        fix,
        'dsh',
      ),
    )
}

/**
 * pnpm's shim runs the `node` beside it when there is one, so for a pnpm install the fix is Node 22 in the same
 * folder; an npm link (`#!/usr/bin/env node`) runs the first `node` on PATH.
 */
function nodeFix(bin: string): Fix {
  const app = appDirOf(bin)
  if (app !== undefined && existsSync(join(app, 'pnpm-lock.yaml')))
    return shell`cd ${app} && pnpm add node@22.23.3 --allow-build=node`
  return `put a Node >= 22.19 first on PATH, or install DSH as INSTALL.md step 1 says (Node 22 beside dsh)`
}

function checkVersion(version: string | undefined, findings: Finding[]): void {
  if (version !== undefined && (SUPPORTED_DSH as readonly string[]).includes(version)) {
    findings.push(
      ok('dsh-version', `DSH ${version} is a line dsh-harden supports (${SUPPORTED_DSH.join(', ')})`),
    )
    return
  }
  findings.push(
    warning(
      'dsh-version',
      `DSH ${version ?? '(unknown)'} is not a line dsh-harden is tested on (${SUPPORTED_DSH.join(', ')})`,
      `install @deepseek-ai/dsh@${PINNED_DSH} (INSTALL.md step 1; \`latest\`, 0.1.5-rc.2, does not install: ETARGET)`,
    ),
  )
}

/**
 * rc.8's boot calls `hmr.registerConfig()` (dsh-app-boot `watchUserPatches`). The app declares
 * `@deepseek-ai/cordis-plugin-hmr@^1.0.16`, which resolves to 1.0.19, a release without that method, so an
 * unpinned install dies at start with `TypeError: hmr.registerConfig is not a function`. Read from the code the app
 * really resolves, not from a version list.
 */
function checkHmr(bin: string, packageDir: string, version: string | undefined, findings: Finding[]): void {
  const hmr = resolvePackage(packageDir, HMR)
  const fix = hmrFix(bin)
  if (hmr === undefined) {
    findings.push(
      failure('hmr-pin', `${HMR} is not installed beside @deepseek-ai/dsh (${packageDir})`, fix, 'dsh'),
    )
    return
  }
  if (hasRegisterConfig(hmr)) {
    findings.push(
      ok('hmr-pin', `${HMR} ${hmr.version} has registerConfig(), which DSH ${version} calls at boot`),
    )
    return
  }
  findings.push(
    failure(
      'hmr-pin',
      `${HMR} ${hmr.version} (${hmr.dir}) has no registerConfig(); DSH ${version} calls it at boot and exits with ` +
        '`TypeError: hmr.registerConfig is not a function`',
      fix,
      'dsh',
    ),
  )
}

function hasRegisterConfig(hmr: ResolvedPackage): boolean {
  const main = typeof hmr.manifest.main === 'string' ? hmr.manifest.main : 'lib/index.js'
  try {
    return /\bregisterConfig\s*\(/.test(readFileSync(join(hmr.dir, main), 'utf8'))
  } catch {
    return false
  }
}

/** The override, in the package manager the app folder was installed with. */
function hmrFix(bin: string): Fix {
  const app = appDirOf(bin)
  if (app === undefined) return `pin ${HMR} to ${PINNED_HMR}: ${INSTALL_FIX}`
  if (existsSync(join(app, 'package-lock.json')) && !existsSync(join(app, 'pnpm-lock.yaml')))
    return shell`cd ${app} && npm pkg set ${`overrides.${HMR}=${PINNED_HMR}`} && npm install`
  // The override changes what the lockfile records, so the install must be allowed to rewrite it: under `CI=true`
  // pnpm would otherwise refuse with ERR_PNPM_LOCKFILE_CONFIG_MISMATCH.
  return shell`cd ${app} && npm pkg set ${`pnpm.overrides.${HMR}=${PINNED_HMR}`} && pnpm install --no-frozen-lockfile`
}
