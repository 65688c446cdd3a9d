/**
 * The panel's rules, without DOM or React (unit-tested in `tests/web-panel-model.test.ts`): what the header badge
 * says, how rows group, and what a response must look like before anything renders it.
 */
import {
  type ContractRow,
  type ContractsReply,
  type ContractsView,
  VALIDATOR_CONSTRUCTS,
  VALIDATOR_FALLBACKS,
  VERDICT_KINDS,
  type VerdictKind,
} from '../../src/web/wire.ts'
import type { ContractsKey } from './locales.ts'
import { RULES_EN } from './rule-texts.ts'

/** Shown in the session header only when something was withheld or repaired, with how many. */
export function badgeLabel(
  counts: Readonly<Record<VerdictKind, number>>,
): { readonly key: ContractsKey; readonly params: Record<string, number> } | undefined {
  const { withheld, repaired } = counts
  if (withheld > 0 && repaired > 0) return { key: 'badge.both', params: { withheld, repaired } }
  if (withheld > 0)
    return {
      key: withheld === 1 ? 'badge.withheld.one' : 'badge.withheld.other',
      params: { count: withheld },
    }
  if (repaired > 0)
    return {
      key: repaired === 1 ? 'badge.repaired.one' : 'badge.repaired.other',
      params: { count: repaired },
    }
  return undefined
}

export interface RowGroup {
  readonly verdict: VerdictKind
  readonly rows: readonly ContractRow[]
}

/** The rows by verdict, in panel order (withheld first), non-empty groups only; row order within a group is kept. */
export function groupRows(rows: readonly ContractRow[]): RowGroup[] {
  return VERDICT_KINDS.map((verdict) => ({
    verdict,
    rows: rows.filter((row) => row.verdict === verdict),
  })).filter((group) => group.rows.length > 0)
}

/** A JSON pointer as shown: the empty pointer is the parameters object itself. */
export function pointerText(pointer: string, root: string): string {
  return pointer === '' ? root : pointer
}

/**
 * The command that takes a plugin's package out of the profile `dsh web` runs (rc.8 `dsh plugin --profile <p>
 * remove <package>`, a pnpm forwarder). npm package names need no shell quoting.
 */
export function removeCommand(packageName: string): string {
  return `dsh plugin --profile web remove ${packageName}`
}

/** The dictionary keys of a finding's reason and fix; a rule this browser half does not know has none. */
export function findingKeys(
  rule: string,
): { readonly message: ContractsKey; readonly fix: ContractsKey } | undefined {
  return Object.hasOwn(RULES_EN, rule)
    ? { message: `rule.${rule}` as ContractsKey, fix: `rulefix.${rule}` as ContractsKey }
    : undefined
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): value is string => typeof value === 'string'
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0

function isFinding(value: unknown): boolean {
  return isObject(value) && isString(value.pointer) && isString(value.rule)
}

function isValidator(value: unknown): boolean {
  return (
    value === null ||
    (isObject(value) &&
      VALIDATOR_CONSTRUCTS.includes(value.construct as never) &&
      (value.pointer === null || isString(value.pointer)) &&
      VALIDATOR_FALLBACKS.includes(value.fallback as never))
  )
}

function isRow(value: unknown): value is ContractRow {
  if (!isObject(value)) return false
  return (
    isString(value.tool) &&
    (value.source === null || isString(value.source)) &&
    (value.package === null || isString(value.package)) &&
    VERDICT_KINDS.includes(value.verdict as VerdictKind) &&
    typeof value.early === 'boolean' &&
    Array.isArray(value.findings) &&
    value.findings.every(isFinding) &&
    isCount(value.moreFindings) &&
    typeof value.repairable === 'boolean' &&
    isValidator(value.validator)
  )
}

/**
 * The response body as a view, or a sentence saying what is wrong with it: a host half of another version, or
 * something else answering the route, must show as an error in the panel, never as a crash of the session header.
 */
export function parseView(body: unknown): ContractsView | string {
  if (!isObject(body)) return 'the response is not a JSON object'
  if (!isString(body.revision)) return 'the response has no revision'
  const counts = body.counts
  if (!isObject(counts) || !VERDICT_KINDS.every((kind) => isCount(counts[kind])))
    return 'the response has no verdict counts'
  if (!Array.isArray(body.rows)) return 'the response has no rows'
  const bad = body.rows.findIndex((row) => !isRow(row))
  if (bad !== -1) return `row ${bad} of the response is not a tool contract row`
  if (!isCount(body.omitted)) return 'the response has no omitted count'
  if (body.lintCommand !== null && !isString(body.lintCommand)) return 'the response has no lint command'
  return body as unknown as ContractsView
}

/** The endpoint's value: `{ unchanged: true }` while the view is the one shown, else a view (checked as above). */
export function parseReply(value: unknown): ContractsReply | string {
  if (isObject(value) && value.unchanged === true && isString(value.revision))
    return { unchanged: true, revision: value.revision }
  return parseView(value)
}
