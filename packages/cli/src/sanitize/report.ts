import { ROUTE_VERDICT_TEXT, showPointer, type ToolRouteVerdictKind } from '@dsh-harden/tools'
import type { ToolVerdict } from './sanitize.ts'

const LABEL = { unchanged: 'ok       ', changed: 'CHANGED  ', rejected: 'REJECTED ' } as const

/** The human report (stderr by default): one line per tool, then what changed or why it was rejected. */
export function formatReport(profile: string, shown: string, report: readonly ToolVerdict[]): string {
  const lines: string[] = []
  for (const tool of report) {
    const suffix = tool.status === 'rejected' ? ' (left out of the output)' : ''
    lines.push(`${LABEL[tool.status]}${tool.name}${suffix}`)
    if (tool.wireName !== undefined)
      lines.push(
        `  name renamed to ${tool.wireName}: the route refuses ${JSON.stringify(tool.name)}`,
        `    needs a decoder: the model calls the tool as ${tool.wireName}; without one mapping it back the server receives a name it never declared`,
      )
    for (const change of tool.changes) {
      const keyword = change.keyword === undefined ? '' : ` ${change.keyword}`
      lines.push(
        `  ${change.schema} ${showPointer(change.pointer)} [${change.action}${keyword}] ${change.detail}`,
      )
      if (change.needsDecoder !== undefined) lines.push(`    needs a decoder: ${change.needsDecoder}`)
    }
    for (const violation of tool.violations) {
      const schema = violation.schema === 'tool' ? '' : `${violation.schema} `
      lines.push(`  ${schema}${showPointer(violation.pointer)} [${violation.rule}] ${violation.message}`)
      lines.push(`    fix: ${violation.hint}`)
    }
  }
  const count = (status: ToolVerdict['status']): number =>
    report.filter((tool) => tool.status === status).length
  const total = report.length === 1 ? '1 tool' : `${report.length} tools`
  const rejected = count('rejected')
  lines.push(
    `${shown} for ${profile}: ${total}, ${count('unchanged')} unchanged, ${count('changed')} changed, ${rejected} rejected` +
      (rejected > 0 ? ' (left out of the output)' : ''),
  )
  // The same verdicts and words as `pnpm compat` and `dsh-harden mcp check`.
  const kinds: readonly ToolRouteVerdictKind[] = ['as-is', 'repaired', 'decoded', 'refused']
  lines.push(
    `route ${profile}: ${kinds.map((kind) => `${report.filter((tool) => tool.verdict === kind).length} ${ROUTE_VERDICT_TEXT[kind]}`).join(', ')}`,
  )
  const decoded =
    report.flatMap((tool) => tool.changes).filter((change) => change.needsDecoder !== undefined).length +
    report.filter((tool) => tool.wireName !== undefined).length
  if (decoded > 0) {
    const changes = decoded === 1 ? '1 change needs' : `${decoded} changes need`
    lines.push(
      `${changes} a decoder on the way back (the dsh-harden overlay in DSH, or \`dsh-harden mcp repair --route ${profile}\`); used without one, this output changes what the server receives`,
    )
  }
  return `${lines.join('\n')}\n`
}
