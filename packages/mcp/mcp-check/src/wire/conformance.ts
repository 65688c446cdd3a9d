import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childEnvironment } from '@dsh-harden/mcp-transport'
import { runGrouped } from './processes.ts'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its `server` mode) as an outside judge of
 * a Streamable HTTP server: `mcp check --url` runs it beside our own checks when it is installed, and the regress
 * `mcp-conformance` group runs it directly and through `mcp repair`. We never bundle it: it is found where the user
 * (or the workspace) installed it.
 */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance'

/** One check as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  readonly scenario: string
  readonly id: string
  /** `SUCCESS`, `FAILURE`, `WARNING`, … as the suite reports it. */
  readonly status: string
  readonly errorMessage?: string | undefined
}

export interface ConformanceRun {
  readonly version: string
  readonly checks: readonly ConformanceCheck[]
  /** Passed / failed checks per scenario, in the order the suite ran them. */
  readonly scenarios: ReadonlyMap<string, { readonly passed: number; readonly failed: number }>
  readonly passed: number
  readonly failed: number
  readonly elapsedMs: number
  /** The suite's own exit code (non-zero when any check failed), null when it was stopped. */
  readonly exitCode: number | null
  readonly timedOut: boolean
}

export interface ConformanceSuite {
  /** Its CLI entry (`dist/index.js`), run with this Node. */
  readonly bin: string
  readonly version: string
}

/** The installed suite, searched upwards from each directory in turn (default: the working directory, then here). */
export function findConformanceSuite(
  from: readonly string[] = [process.cwd(), dirname(fileURLToPath(import.meta.url))],
): ConformanceSuite | undefined {
  for (const start of from) {
    for (let dir = start; ; dir = dirname(dir)) {
      const manifest = join(dir, 'node_modules', CONFORMANCE_PACKAGE, 'package.json')
      if (existsSync(manifest)) {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string; bin?: unknown }
        const bin =
          typeof parsed.bin === 'string' ? parsed.bin : (parsed.bin as Record<string, string>)?.conformance
        if (typeof bin === 'string')
          return { bin: join(dirname(manifest), bin), version: parsed.version ?? '?' }
      }
      if (dirname(dir) === dir) break
    }
  }
  return undefined
}

/** `server-<scenario>-<ISO time with dashes>` → `<scenario>`. */
function scenarioOf(directory: string): string {
  return directory.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
}

/**
 * Runs the suite's server scenarios against `url` (bounded by `timeoutMs`; the suite and anything it started are
 * stopped with its process group) and reads every `checks.json` it wrote.
 */
export async function runConformanceSuite(
  url: string,
  options: { suite: ConformanceSuite; scenario?: string | undefined; timeoutMs: number },
): Promise<ConformanceRun> {
  const out = await mkdtemp(join(tmpdir(), 'dsh-harden-conformance-'))
  try {
    const started = performance.now()
    const args = [options.suite.bin, 'server', '--url', url, '-o', out]
    if (options.scenario !== undefined) args.push('--scenario', options.scenario)
    const run = await runGrouped(process.execPath, args, {
      env: childEnvironment(process.env),
      cwd: out,
      timeoutMs: options.timeoutMs,
    })
    const checks: ConformanceCheck[] = []
    const directories = (await readdir(out, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
    for (const directory of directories) {
      const file = join(out, directory, 'checks.json')
      if (!existsSync(file)) continue
      const scenario = scenarioOf(directory)
      for (const check of JSON.parse(await readFile(file, 'utf8')) as {
        id: string
        status: string
        errorMessage?: string
      }[])
        checks.push({ scenario, id: check.id, status: check.status, errorMessage: check.errorMessage })
    }
    const scenarios = new Map<string, { passed: number; failed: number }>()
    for (const check of checks) {
      const tally = scenarios.get(check.scenario) ?? { passed: 0, failed: 0 }
      if (check.status === 'SUCCESS') tally.passed++
      else if (check.status === 'FAILURE') tally.failed++
      scenarios.set(check.scenario, tally)
    }
    return {
      version: options.suite.version,
      checks,
      scenarios,
      passed: checks.filter((check) => check.status === 'SUCCESS').length,
      failed: checks.filter((check) => check.status === 'FAILURE').length,
      elapsedMs: Math.round(performance.now() - started),
      exitCode: run.code,
      timedOut: run.timedOut,
    }
  } finally {
    await rm(out, { recursive: true, force: true })
  }
}

/** `conformance 0.1.16: 13 of 32 checks passed (19 failed) in 31 scenarios`, for a report line. */
export function describeConformanceRun(run: ConformanceRun): string {
  const stopped = run.timedOut ? '; stopped at the time limit' : ''
  return `${CONFORMANCE_PACKAGE} ${run.version}: ${run.passed} of ${run.checks.length} checks passed (${run.failed} failed) in ${run.scenarios.size} scenarios${stopped}`
}
