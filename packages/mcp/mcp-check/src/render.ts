import type { ToolRouteVerdictKind } from '@dsh-harden/tools'
import type { CheckReport } from './check.ts'
import type { ProfileVerdict } from './clients/profiles.ts'
import type { CheckStatus } from './findings.ts'

const MARK: Readonly<Record<CheckStatus, string>> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' }
const MAX_FINDINGS_PER_CHECK = 8

/** The text report of `dsh-harden mcp check` (the `--json` form is the `CheckReport` itself). */
export function renderReport(report: CheckReport): string {
  const lines: string[] = []
  const server =
    report.server === undefined
      ? 'server did not identify itself'
      : `${report.server.name} ${report.server.version}`
  lines.push(`mcp check: ${report.target} (${report.transport})`)
  lines.push(
    `server: ${server}; protocol ${report.protocolVersion ?? 'not negotiated'}; ${report.tools.length} tool(s)`,
  )
  lines.push('')
  lines.push('Spec checks')
  const width = Math.max(...report.checks.map((check) => check.title.length))
  for (const check of report.checks) {
    lines.push(`  ${MARK[check.status]}  ${check.title.padEnd(width)}  ${check.summary}`)
    if (check.status === 'fail') lines.push(`        required: ${check.requirement}`)
    const shown = check.findings
      .filter((finding) => finding.severity !== 'note')
      .slice(0, MAX_FINDINGS_PER_CHECK)
    for (const finding of shown) {
      lines.push(`        - ${finding.severity === 'warning' ? '(warning) ' : ''}${finding.message}`)
      if (finding.evidence !== undefined && finding.tool === undefined)
        lines.push(`          got: ${finding.evidence}`)
    }
    const hidden = check.findings.filter((finding) => finding.severity !== 'note').length - shown.length
    if (hidden > 0) lines.push(`        … and ${hidden} more (--json lists all)`)
  }
  if (report.calls.length > 0 || report.skippedCalls.length > 0) {
    lines.push('')
    lines.push('Calls (tools/call)')
    for (const call of report.calls)
      lines.push(
        `  ${call.tool} [${call.reason}] ${JSON.stringify(call.arguments)} -> ${call.outcome} (${call.elapsedMs} ms)`,
      )
    for (const skipped of report.skippedCalls) lines.push(`  ${skipped.tool}: not called: ${skipped.reason}`)
  }
  if (report.clients.length > 0) {
    lines.push('')
    lines.push('Real clients')
    const labelWidth = Math.max(...report.clients.map((client) => client.label.length))
    for (const client of report.clients)
      lines.push(
        `  ${client.label.padEnd(labelWidth)}  ${client.status.toUpperCase().padEnd(11)} ${client.detail}`,
      )
  }
  if (report.profiles.length > 0) lines.push(...routeLines(report.profiles))
  if (!report.conformant && report.stderrTail !== '') {
    lines.push('')
    lines.push('Server stderr (last lines)')
    for (const line of report.stderrTail.split('\n')) lines.push(`  ${line}`)
  }
  lines.push('')
  const failed = report.checks.filter((check) => check.status === 'fail').length
  lines.push(
    report.conformant
      ? `Conformant: no spec violations (${report.elapsedMs} ms).`
      : `NOT conformant: ${failed} check(s) failed (${report.elapsedMs} ms).`,
  )
  return `${lines.join('\n')}\n`
}

function toolNames(list: readonly { tool: string }[]): string {
  if (list.length === 0) return ''
  const shown = list.slice(0, 4).map((r) => r.tool)
  return ` (${shown.join(', ')}${list.length > 4 ? ', …' : ''})`
}

/**
 * Refusals and wire changes apart: a route that takes a schema as sent is not a warning, even when dsh-harden sends
 * it cleaner (a dropped `$schema`).
 */
function routeLines(profiles: readonly ProfileVerdict[]): string[] {
  const lines = ['']
  const refusing = profiles.filter((p) => p.verbatim.length > 0 || p.hardened.length > 0)
  if (refusing.length === 0)
    lines.push('Model routes: no route refuses a tool, as DSH sends them today or with dsh-harden')
  else {
    lines.push('Model routes (tools each would refuse: as DSH sends them today -> with dsh-harden)')
    for (const profile of refusing)
      lines.push(
        `  ${profile.profile.padEnd(13)}  ${profile.verbatim.length}/${profile.tools}${toolNames(profile.verbatim)} -> ${profile.hardened.length}/${profile.tools}${toolNames(profile.hardened)}`,
      )
  }
  lines.push(
    ...takenAsSent(
      profiles,
      'misread',
      'Taken but misread (the route takes these tools as sent; the arguments come back changed, dsh-harden decodes)',
    ),
    ...takenAsSent(
      profiles,
      'wireOnly',
      'Changes on the wire, not refusals (the route takes these tools as sent; dsh-harden sends them cleaner)',
    ),
  )
  // Last, so the groups above stay contiguous; the same verdicts `pnpm compat` and `sanitize` report.
  lines.push(
    'Each route with dsh-harden (sent as is / repaired / projected with a decoder / refused, as pnpm compat counts)',
    ...profiles.map(
      (p) =>
        `  ${p.profile.padEnd(13)}  ${VERDICT_ORDER.map((kind) => p.verdicts[kind].length).join(' / ')}${toolNames(p.verdicts.refused.map((tool) => ({ tool })))}`,
    ),
  )
  return lines
}

const VERDICT_ORDER: readonly ToolRouteVerdictKind[] = ['as-is', 'repaired', 'decoded', 'refused']

/** One group of tools a route takes as sent, with the first reason per route; nothing when no route has any. */
function takenAsSent(
  profiles: readonly ProfileVerdict[],
  key: 'misread' | 'wireOnly',
  heading: string,
): string[] {
  const listed = profiles.filter((p) => p[key].length > 0)
  if (listed.length === 0) return []
  return [
    heading,
    ...listed.map(
      (p) =>
        `  ${p.profile.padEnd(13)}  ${p[key].length}/${p.tools}${toolNames(p[key])}: ${p[key][0]?.reason ?? ''}`,
    ),
  ]
}
