import { ShellCommand } from './shell.ts'

/** How a finding reads: fine, worth fixing, something that stops DSH or the overlay, or a check not run. */
export type Severity = 'ok' | 'warn' | 'error' | 'skip'

/** What an error stops: DSH itself (it would not start, or every turn dies), or only the overlay. */
export type Stops = 'dsh' | 'overlay'

/**
 * What to do about a finding: a `ShellCommand` is one line to paste into a POSIX shell as printed; a string is an
 * instruction for a person (an edit, a choice), never meant to be run.
 */
export type Fix = ShellCommand | string

/** One line of `dsh-harden doctor`: what was checked, what was found where, and the exact fix. */
export interface Finding {
  /** The check's short name, e.g. `node`, `hmr-pin`, `hmr-row`, `patch-file`, `row`. */
  readonly check: string
  readonly severity: Severity
  /** What was found, naming where (a path, a profile, a row id). */
  readonly message: string
  /** Every warning and error has one. */
  readonly fix?: Fix | undefined
  /** Set on errors only. */
  readonly stops?: Stops | undefined
}

export function ok(check: string, message: string): Finding {
  return { check, severity: 'ok', message }
}

export function warning(check: string, message: string, fix: Fix): Finding {
  return { check, severity: 'warn', message, fix }
}

export function failure(check: string, message: string, fix: Fix, stops: Stops): Finding {
  return { check, severity: 'error', message, fix, stops }
}

export function skipped(check: string, message: string): Finding {
  return { check, severity: 'skip', message }
}

/** 1 when DSH would not start or the overlay would not run, else 0 (warnings and skipped checks do not fail). */
export function exitCodeOf(findings: readonly Finding[]): 0 | 1 {
  return findings.some((finding) => finding.severity === 'error') ? 1 : 0
}

const LABEL: Record<Severity, string> = { ok: 'ok  ', warn: 'warn', error: 'FAIL', skip: 'skip' }

/** ` — run: <shell line>` (everything after `run: ` pastes into a shell) or ` — fix: <what to do>`. */
function fixText(fix: Fix | undefined): string {
  if (fix === undefined) return ''
  return fix instanceof ShellCommand ? ` — run: ${fix.line}` : ` — fix: ${fix}`
}

/** One line per finding, `FAIL hmr-row: <what, where> — run: <command>`, then one summary line. */
export function formatText(findings: readonly Finding[]): string {
  const lines = findings.map(
    (finding) => `${LABEL[finding.severity]} ${finding.check}: ${finding.message}${fixText(finding.fix)}`,
  )
  lines.push(summaryOf(findings))
  return `${lines.join('\n')}\n`
}

function summaryOf(findings: readonly Finding[]): string {
  const errors = findings.filter((finding) => finding.severity === 'error')
  const warnings = findings.filter((finding) => finding.severity === 'warn').length
  const skips = [...new Set(findings.filter((f) => f.severity === 'skip').map((f) => f.check))]
  const warned = warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'})`
  if (errors.length === 0 && skips.length === 0) return `doctor: DSH starts and the overlay runs${warned}`
  if (errors.length === 0)
    return `doctor: no problem in the checks that ran${warned}; not checked: ${skips.join(', ')} (run without --no-write for them)`
  const dsh = errors.some((finding) => finding.stops === 'dsh')
  const what = dsh ? 'DSH would not start (or every turn would fail)' : 'the overlay would not run'
  return `doctor: ${what}: ${errors.length} problem${errors.length === 1 ? '' : 's'} to fix${warned}`
}

/** `fix` is what to do; `command` is the same line when it is one shell command to run, else null. */
export function formatJson(findings: readonly Finding[]): string {
  const body = {
    ok: exitCodeOf(findings) === 0,
    findings: findings.map(({ check, severity, message, fix, stops }) => ({
      check,
      severity,
      message,
      fix: fix === undefined ? null : fix instanceof ShellCommand ? fix.line : fix,
      command: fix instanceof ShellCommand ? fix.line : null,
      stops: stops ?? null,
    })),
  }
  return `${JSON.stringify(body, null, 2)}\n`
}
