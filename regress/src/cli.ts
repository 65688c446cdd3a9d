import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Group } from './group.ts'
import { renderReport, reportJson, runPasses } from './report.ts'
import { runGroups } from './run-groups.ts'

/**
 * `pnpm regress [--only <group>]... [--json] [--log <file>]`.
 *
 * The report goes to stdout and nothing else does: the runner starts itself once more with its stderr pointing at a
 * log file, so every child process that inherits stderr (MCP servers, DSH's subprocesses, the SDK's stdio transport)
 * writes there too. The report names that file.
 */
const LOG_ENV = 'DSH_HARDEN_REGRESS_LOG'

const OPTIONS = {
  json: { type: 'boolean', default: false },
  only: { type: 'string', multiple: true },
  log: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const

function usage(groups: readonly Group[]): string {
  const width = Math.max(...groups.map((group) => group.name.length))
  return [
    'usage: pnpm regress [--only <group>]... [--json] [--log <file>]',
    '',
    '  --only <group>  run only this group (repeatable)',
    '  --json          rows with their computed verdicts as JSON',
    '  --log <file>    where child-process stderr goes (default: a new file under the temp directory)',
    '',
    'groups:',
    ...groups.map((group) => `  ${group.name.padEnd(width)}  ${group.title}`),
  ].join('\n')
}

/** The groups `--only` asked for, in report order; an unknown name is an error that lists the known ones. */
export function selectGroups(
  groups: readonly Group[],
  only: readonly string[] | undefined,
): readonly Group[] {
  if (only === undefined || only.length === 0) return groups
  const known = new Set(groups.map((group) => group.name))
  const unknown = only.filter((name) => !known.has(name))
  if (unknown.length > 0)
    throw new Error(
      `--only ${unknown.map((name) => `"${name}"`).join(', ')}: no such group; known groups: ${[...known].join(', ')}`,
    )
  return groups.filter((group) => only.includes(group.name))
}

async function runInChild(groups: readonly Group[], logPath: string, json: boolean): Promise<void> {
  // DSH writes an anonymous user id under DSH_HOME on the first request; keep it out of the user's home.
  const home = mkdtempSync(join(tmpdir(), 'dsh-harden-regress-home-'))
  process.env.DSH_HOME = home
  try {
    const run = await runGroups(groups, logPath)
    process.stdout.write(`${json ? reportJson(run) : renderReport(run)}\n`)
    process.exitCode = runPasses(run) ? 0 : 1
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

async function respawnWithStderrTo(logPath: string, args: readonly string[]): Promise<number> {
  const fd = openSync(logPath, 'a')
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
      stdio: ['ignore', 'inherit', fd],
      env: { ...process.env, [LOG_ENV]: logPath },
    })
    const forward = (signal: NodeJS.Signals) => child.kill(signal)
    process.on('SIGINT', forward).on('SIGTERM', forward)
    const [code, signal] = (await new Promise((done) => child.on('exit', (...exit) => done(exit)))) as [
      number | null,
      NodeJS.Signals | null,
    ]
    process.off('SIGINT', forward).off('SIGTERM', forward)
    if (code === 0 || code === 1) return code
    process.stdout.write(
      `regress stopped before its report (${signal ?? `exit code ${code}`}); its stderr is in ${logPath}\n`,
    )
    return 2
  } finally {
    closeSync(fd)
  }
}

export async function runRegress(groups: readonly Group[], argv: readonly string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; args: string[] }>>['values']
  let selected: readonly Group[]
  try {
    // `pnpm regress -- --json` passes the `--` through.
    const args = argv.filter((arg) => arg !== '--')
    parsed = parseArgs({ options: OPTIONS, args, allowPositionals: false }).values
    selected = selectGroups(groups, parsed.only)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage(groups)}\n`)
    process.exitCode = 2
    return
  }
  if (parsed.help) {
    process.stdout.write(`${usage(groups)}\n`)
    return
  }
  const inherited = process.env[LOG_ENV]
  if (inherited !== undefined && inherited !== '') return runInChild(selected, inherited, parsed.json)
  const logPath =
    parsed.log === undefined
      ? join(mkdtempSync(join(tmpdir(), 'dsh-harden-regress-')), 'stderr.log')
      : resolve(parsed.log)
  process.exitCode = await respawnWithStderrTo(logPath, argv)
}
