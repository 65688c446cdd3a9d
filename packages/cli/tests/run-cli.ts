import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../bin/dsh-harden.js', import.meta.url))
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  /** The Node that runs the bin (default: this one). */
  readonly node?: string | undefined
  readonly cwd?: string
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>
}

/** Runs the real bin in a child process (with this Node unless told otherwise), from the package directory. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      options.node ?? process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd ?? PACKAGE_DIR,
        env: { ...process.env, ...options.env },
        timeout: 30_000,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
  })
}

export interface JsonViolation {
  readonly pointer: string
  readonly rule: string
  readonly message: string
  readonly hint: string
}

export interface JsonTool {
  readonly name: string
  readonly source: string | null
  readonly ok: boolean
  readonly errors: readonly JsonViolation[]
}

export interface JsonReport {
  readonly plugin: { readonly path: string; readonly name: string | null }
  readonly tools: readonly JsonTool[]
  readonly standIns: readonly string[]
  readonly findings: readonly string[]
  readonly notes: readonly string[]
}

export async function lintJson(
  path: string,
  ...extra: string[]
): Promise<{ code: number | null; report: JsonReport; stderr: string }> {
  const result = await runCli(['lint', path, '--json', ...extra])
  return { code: result.code, report: JSON.parse(result.stdout) as JsonReport, stderr: result.stderr }
}

export async function lintError(
  path: string,
  ...extra: string[]
): Promise<{ code: number | null; error: string; notes: string[] }> {
  const result = await runCli(['lint', path, '--json', ...extra])
  const body = JSON.parse(result.stdout) as { error: string; notes?: string[] }
  return { code: result.code, error: body.error, notes: body.notes ?? [] }
}

export function toolNamed(report: JsonReport, name: string): JsonTool {
  const tool = report.tools.find((candidate) => candidate.name === name)
  if (tool === undefined)
    throw new Error(`no tool ${name} in ${JSON.stringify(report.tools.map((t) => t.name))}`)
  return tool
}
