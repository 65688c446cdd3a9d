/** How a finding reads: fine, worth fixing, or something that stops DSH or the overlay. */
export type Severity = 'ok' | 'warn' | 'error'

/** What an error stops: DSH itself (it would not start, or every turn dies), or only the overlay. */
export type Stops = 'dsh' | 'overlay'

/** One line of `dsh-harden doctor`: what was checked, what was found where, and the exact fix. */
export interface Finding {
  /** The check's short name, e.g. `node`, `hmr-pin`, `hmr-row`, `patch-file`, `overlay-row`. */
  readonly check: string
  readonly severity: Severity
  /** What was found, naming where (a path, a profile, a row id). */
  readonly message: string
  /** The command to run or the edit to make; every warning and error has one. */
  readonly fix?: string | undefined
  /** Set on errors only. */
  readonly stops?: Stops | undefined
}

export function ok(check: string, message: string): Finding {
  return { check, severity: 'ok', message }
}

export function warning(check: string, message: string, fix: string): Finding {
  return { check, severity: 'warn', message, fix }
}

export function failure(check: string, message: string, fix: string, stops: Stops): Finding {
  return { check, severity: 'error', message, fix, stops }
}

/** 1 when DSH would not start or the overlay would not run, else 0 (warnings do not fail). */
export function exitCodeOf(findings: readonly Finding[]): 0 | 1 {
  return findings.some((finding) => finding.severity === 'error') ? 1 : 0
}

const LABEL: Record<Severity, string> = { ok: 'ok  ', warn: 'warn', error: 'FAIL' }

/** One line per finding, `FAIL hmr-row: <what, where> — fix: <command>`, then one summary line. */
export function formatText(findings: readonly Finding[]): string {
  const lines = findings.map(
    (finding) =>
      `${LABEL[finding.severity]} ${finding.check}: ${finding.message}${finding.fix === undefined ? '' : ` — fix: ${finding.fix}`}`,
  )
  lines.push(summaryOf(findings))
  return `${lines.join('\n')}\n`
}

function summaryOf(findings: readonly Finding[]): string {
  const errors = findings.filter((finding) => finding.severity === 'error')
  const warnings = findings.filter((finding) => finding.severity === 'warn').length
  const warned = warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'})`
  if (errors.length === 0) return `doctor: DSH starts and the overlay runs${warned}`
  const dsh = errors.some((finding) => finding.stops === 'dsh')
  const what = dsh ? 'DSH would not start (or every turn would fail)' : 'the overlay would not run'
  return `doctor: ${what}: ${errors.length} problem${errors.length === 1 ? '' : 's'} to fix${warned}`
}

export function formatJson(findings: readonly Finding[]): string {
  const body = {
    ok: exitCodeOf(findings) === 0,
    findings: findings.map(({ check, severity, message, fix, stops }) => ({
      check,
      severity,
      message,
      fix: fix ?? null,
      stops: stops ?? null,
    })),
  }
  return `${JSON.stringify(body, null, 2)}\n`
}
