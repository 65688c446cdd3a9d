import { isRepairable, type SchemaViolation, type ValidatorProblem } from '@dsh-harden/tools'
import type { ToolVerdict } from '../dsh/verdicts.ts'
import {
  type ContractFinding,
  type ContractRow,
  type ContractsView,
  type ValidatorConstruct,
  type ValidatorFallback,
  VERDICT_KINDS,
  type VerdictKind,
} from './wire.ts'

/** Bounds of one response: the route serves at most this many bytes of rows, whatever a plugin registered. */
export const VIEW_LIMITS = {
  /** Serialized rows, in UTF-16 code units (an upper bound on what the browser parses). */
  rowBudget: 512 * 1024,
  /** Findings kept per row; the rest are counted in `moreFindings`. */
  findingsPerRow: 12,
  /** Characters kept of any one string (tool, source, package, pointer). */
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
  // Pointer and rule only: a violation's message and hint can quote the schema (a name, an `enum` value, a pattern).
  const findings = violations.slice(0, limits.findingsPerRow).map((violation) => ({
    pointer: clip(violation.pointer, limits.text),
    rule: violation.rule,
  }))
  return { findings, more: Math.max(0, violations.length - findings.length) }
}

/**
 * The kind of construct ajv could not compile, from `@dsh-harden/tools`' own wording of it (`describeCompileFailure`,
 * `patternProblem`); the text itself can quote the schema (a pattern), so only the kind leaves the host.
 */
function constructOf(problem: ValidatorProblem): ValidatorConstruct {
  if (problem.pointer !== undefined) return 'pattern'
  if (problem.construct.includes('call stack')) return 'call-stack'
  if (problem.construct.includes('used twice')) return 'duplicate-id'
  if (problem.construct.includes('nested `$id` base URI')) return 'unresolved-ref'
  return 'other'
}

function fallbackOf(problem: ValidatorProblem): ValidatorFallback {
  if (problem.fallback.startsWith('none:')) return 'none'
  if (problem.pointer !== undefined) return 'ajv-without-pattern'
  return problem.fallback.startsWith('DSH ') ? 'dsh' : 'custom'
}

/** One verdict as a row: names, verdict, pointers and rules only (no message: it can quote the schema). */
export function contractRow(
  verdict: ToolVerdict,
  packages: ReadonlyMap<string, string> = new Map(),
  limits: ViewLimits = VIEW_LIMITS,
): ContractRow {
  const source = verdict.identity.source
  const installed = source === undefined ? undefined : packages.get(source)
  const base = {
    tool: clip(verdict.identity.tool, limits.text),
    source: source === undefined ? null : clip(source, limits.text),
    package: installed === undefined ? null : clip(installed, limits.text),
    verdict: verdict.kind,
    early: verdict.early,
  }
  switch (verdict.kind) {
    case 'withheld':
    case 'repaired': {
      const violations = verdict.kind === 'withheld' ? verdict.error.details : verdict.report.repaired
      const { findings, more } = findingsOf(violations, limits)
      const repairable = verdict.kind === 'withheld' && isRepairable(violations)
      return { ...base, findings, moreFindings: more, repairable, validator: null }
    }
    case 'fallback-validator':
      return {
        ...base,
        findings: [],
        moreFindings: 0,
        repairable: false,
        validator: {
          construct: constructOf(verdict.problem),
          pointer: verdict.problem.pointer === undefined ? null : clip(verdict.problem.pointer, limits.text),
          fallback: fallbackOf(verdict.problem),
        },
      }
    case 'accepted':
      return { ...base, findings: [], moreFindings: 0, repairable: false, validator: null }
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
  context: {
    readonly packages?: ReadonlyMap<string, string>
    readonly lintCommand?: string | undefined
  } = {},
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
    const row = contractRow(verdict, context.packages, limits)
    spent += JSON.stringify(row).length + 1
    if (spent > limits.rowBudget) break
    rows.push(row)
  }
  return {
    revision,
    counts,
    rows,
    omitted: snapshot.verdicts.length - rows.length + snapshot.forgotten,
    lintCommand: context.lintCommand ?? null,
  }
}
