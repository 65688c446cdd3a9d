import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import {
  childEnv,
  createDshHome,
  type DshApp,
  type DshHome,
  ensureDshApp,
  runBounded,
} from '@dsh-harden/testkit/dsh-app'
import { afterEach, beforeAll, expect } from 'vitest'
import { BIN, type CliResult } from './run-cli.ts'

/** One finding of `dsh-harden doctor --json`. */
export interface JsonFinding {
  readonly check: string
  readonly severity: 'ok' | 'warn' | 'error' | 'skip'
  readonly message: string
  readonly fix: string | null
  /** The fix when it is one shell line to run, else null. */
  readonly command: string | null
  readonly stops: 'dsh' | 'overlay' | null
}

/** A user's PATH without the workspace's Node 22 (pnpm puts it first for the test run). */
export const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin'

/**
 * The environment of a user: their PATH, their HOME and DSH home, none of the test run's npm/pnpm variables and not
 * the NODE_PATH `pnpm exec` set for it (DSH resolves bundle layers through it).
 */
export function userEnv(home: string, dshHome: string, path: string): Record<string, string> {
  const { NODE_PATH: _pnpmNodePath, ...env } = childEnv(process.env, { DSH_HOME: dshHome, HOME: home })
  return { ...env, PATH: path }
}

/** `dsh-harden doctor <args>` as a subprocess on this Node, in exactly `env` (nothing of this process's added). */
export function runDoctor(
  env: Record<string, string>,
  args: readonly string[],
  cwd = env.HOME,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'doctor', ...args],
      { env, cwd, timeout: 120_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** `dsh-harden doctor --json <args>`, parsed. */
export async function doctorJson(env: Record<string, string>, args: readonly string[] = [], cwd = env.HOME) {
  const result = await runDoctor(env, ['--json', ...args], cwd)
  let body: { ok: boolean; findings: JsonFinding[] }
  try {
    body = JSON.parse(result.stdout) as typeof body
  } catch {
    throw new Error(`doctor printed no JSON (exit ${result.code}): ${result.stdout}${result.stderr}`)
  }
  return { code: result.code, ...body, stderr: result.stderr }
}

export function failing(findings: readonly JsonFinding[], check: string): JsonFinding[] {
  return findings.filter((candidate) => candidate.check === check && candidate.severity !== 'ok')
}

export function finding(findings: readonly JsonFinding[], check: string): JsonFinding {
  const found = failing(findings, check)[0]
  if (found === undefined)
    throw new Error(`no failing ${check} finding in ${JSON.stringify(findings, null, 2)}`)
  return found
}

export function okFor(findings: readonly JsonFinding[], check: string): boolean {
  const mine = findings.filter((candidate) => candidate.check === check)
  return mine.length > 0 && mine.every((candidate) => candidate.severity === 'ok')
}

/** Runs a fix exactly as doctor printed it, as a user pastes it into bash, from their home. */
export function pasteIntoBash(command: string | null, env: Record<string, string>): void {
  expect(command, 'the fix is a shell command').not.toBeNull()
  execFileSync('bash', ['-euo', 'pipefail', '-c', command!], { env, cwd: env.HOME, stdio: 'pipe' })
}

/** Every entry under `dir`: its path, kind, and bytes (a file's hash and mtime, a link's target). */
export function treeOf(dir: string): string[] {
  const lines: string[] = []
  const stack = ['']
  while (stack.length > 0) {
    const path = stack.pop()!
    for (const name of readdirSync(join(dir, path)).sort()) {
      const relative = join(path, name)
      const full = join(dir, relative)
      const stat = lstatSync(full)
      if (stat.isSymbolicLink()) lines.push(`${relative} -> ${readlinkSync(full)}`)
      else if (stat.isDirectory()) {
        lines.push(`${relative}/`)
        stack.push(relative)
      } else {
        const hash = createHash('sha256').update(readFileSync(full)).digest('hex')
        lines.push(`${relative} ${hash} ${stat.mtimeMs}`)
      }
    }
  }
  return lines.sort()
}

/**
 * For a test file on the real `dsh` app (testkit's cached install): `app()` once it is installed, and `home()` a fresh
 * DSH home named with `prefix`, removed when its test ends (a home holds the links DSH wrote; many at once is slow).
 */
export function realAppHomes(prefix: string): { readonly app: () => DshApp; readonly home: () => DshHome } {
  let installed: DshApp | undefined
  const homes: DshHome[] = []
  beforeAll(async () => {
    installed = await ensureDshApp()
  }, 600_000)
  afterEach(() => {
    for (const home of homes.splice(0)) home.close()
  }, 600_000)
  return {
    app: () => {
      if (installed === undefined)
        throw new Error('realAppHomes: app() read before beforeAll installed the app')
      return installed
    },
    home: () => {
      const home = createDshHome({ prefix })
      homes.push(home)
      return home
    },
  }
}

/** `dsh --profile <p> --dump-config` in `home` with `env`: creates the profile without starting DSH; must succeed. */
export async function dumpConfig(
  app: DshApp,
  home: DshHome,
  profile: string,
  env: Record<string, string>,
): Promise<void> {
  const run = await runBounded(join(app.binDir, 'dsh'), ['--profile', profile, '--dump-config'], {
    cwd: home.workspace,
    env,
    timeoutMs: 60_000,
    label: 'dsh --dump-config',
  })
  expect(run.exitCode, run.stderr).toBe(0)
}
