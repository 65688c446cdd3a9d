import type { SchemaViolation } from '@dsh-harden/tools'
import type { ToolVerdict } from '../verdicts.ts'
import {
  type ContractFinding,
  type ContractRow,
  type ContractsView,
  VERDICT_KINDS,
  type VerdictKind,
} from './wire.ts'

/** Bounds of one response: the route serves at most this many bytes of rows, whatever a plugin registered. */
export const VIEW_LIMITS = {
  /** Serialized rows, in UTF-16 code units (an upper bound on what the browser parses). */
  rowBudget: 512 * 1024,
  /** Findings kept per row; the rest are counted in `moreFindings`. */
  findingsPerRow: 12,
  /** Characters kept of any one string (tool, source, pointer, message, hint). */
  text: 600,
} as const

export type ViewLimits = { readonly [K in keyof typeof VIEW_LIMITS]: number }

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}

function findingsOf(
  violations: readonly SchemaViolation[],
  limits: ViewLimits,
): { findings: ContractFinding[]; more: number } {
  const findings = violations.slice(0, limits.findingsPerRow).map((violation) => ({
    pointer: clip(violation.pointer, limits.text),
    message: clip(violation.message, limits.text),
    hint: clip(violation.hint, limits.text),
  }))
  return { findings, more: Math.max(0, violations.length - findings.length) }
}

/** One verdict as a row: names, verdict and reasons only (an ajv message is left out: it can quote the schema). */
export function contractRow(verdict: ToolVerdict, limits: ViewLimits = VIEW_LIMITS): ContractRow {
  const base = {
    tool: clip(verdict.identity.tool, limits.text),
    source: verdict.identity.source === undefined ? null : clip(verdict.identity.source, limits.text),
    verdict: verdict.kind,
    early: verdict.early,
  }
  switch (verdict.kind) {
    case 'withheld':
    case 'repaired': {
      const violations = verdict.kind === 'withheld' ? verdict.error.details : verdict.report.repaired
      const { findings, more } = findingsOf(violations, limits)
      return { ...base, findings, moreFindings: more, validator: null }
    }
    case 'fallback-validator':
      return {
        ...base,
        findings: [],
        moreFindings: 0,
        validator: {
          construct: clip(verdict.problem.construct, limits.text),
          fallback: clip(verdict.problem.fallback, limits.text),
        },
      }
    case 'accepted':
      return { ...base, findings: [], moreFindings: 0, validator: null }
  }
}

const RANK: Readonly<Record<VerdictKind, number>> = Object.fromEntries(
  VERDICT_KINDS.map((kind, index) => [kind, index]),
) as Record<VerdictKind, number>

function byPanelOrder(left: ToolVerdict, right: ToolVerdict): number {
  const rank = RANK[left.kind] - RANK[right.kind]
  if (rank !== 0) return rank
  const source = (left.identity.source ?? '').localeCompare(right.identity.source ?? '')
  return source !== 0 ? source : left.identity.tool.localeCompare(right.identity.tool)
}

/**
 * The panel's view of a ledger snapshot: every verdict counted, the rows in panel order until the byte budget is
 * spent (withheld and repaired tools come first, so they are the last to be cut), the rest counted as omitted.
 */
export function contractsView(
  snapshot: { readonly verdicts: readonly ToolVerdict[]; readonly forgotten: number },
  revision: string,
  limits: ViewLimits = VIEW_LIMITS,
): ContractsView {
  const counts: Record<VerdictKind, number> = {
    withheld: 0,
    repaired: 0,
    'fallback-validator': 0,
    accepted: 0,
  }
  for (const verdict of snapshot.verdicts) counts[verdict.kind]++
  const rows: ContractRow[] = []
  let spent = 0
  for (const verdict of [...snapshot.verdicts].sort(byPanelOrder)) {
    const row = contractRow(verdict, limits)
    spent += JSON.stringify(row).length + 1
    if (spent > limits.rowBudget) break
    rows.push(row)
  }
  return {
    revision,
    counts,
    rows,
    omitted: snapshot.verdicts.length - rows.length + snapshot.forgotten,
  }
}
