import type { JsonObject } from '../json-value.ts'
import type { ProfileId, ProjectionChange } from '../projection/types.ts'
import { formatViolation } from '../violation.ts'
import { decoderNote } from './decoding.ts'
import { isPlainRecord } from './mcp-shape.ts'
import type { McpToolVerdict } from './mcp-tool.ts'
import { judgeRoute, type RouteVerdict } from './route-refusal.ts'

/**
 * The one verdict on a listed tool for one route, in the words of the compatibility table (`pnpm compat`),
 * `dsh-harden sanitize` and `dsh-harden mcp check`, all of which call these functions:
 *
 * - with dsh-harden (`toolRouteVerdict`): `as-is` (the wire schema is the very object the server listed),
 *   `repaired` (sent changed, no decoder needed), `decoded` (projected with a decoder) or `refused` (isolated, or the
 *   route would still refuse the wire);
 * - stock (`stockRouteVerdict`): the declared schema sent unchanged: `as-is`, `misread` (taken, but the arguments come
 *   back wrong) or `refused`.
 */
export type ToolRouteVerdictKind = 'as-is' | 'repaired' | 'decoded' | 'refused'
export type StockRouteVerdictKind = 'as-is' | 'misread' | 'refused'

export const ROUTE_VERDICT_TEXT: Readonly<Record<ToolRouteVerdictKind | StockRouteVerdictKind, string>> = {
  'as-is': 'sent as is',
  repaired: 'repaired',
  decoded: 'projected with a decoder',
  misread: 'sent, but read back wrong',
  refused: 'refused',
}

export interface ToolRouteVerdict {
  readonly verdict: ToolRouteVerdictKind
  /** Why it is refused (at most `REASONS_SHOWN`, each `pointer: message (fix: hint)`). */
  readonly reasons: readonly string[]
  /** The MCP boundary's repairs, then the projection's changes, each as `pointer action: detail`. */
  readonly changes: readonly string[]
  /** Why a decoder is needed (one line per change that needs one). */
  readonly decoder: readonly string[]
}

export interface StockRouteVerdict {
  readonly verdict: StockRouteVerdictKind
  readonly reasons: readonly string[]
}

export const REASONS_SHOWN = 5

export function showChange(change: ProjectionChange): string {
  return `${change.pointer || '(root)'} ${change.action}${change.keyword ? ` ${change.keyword}` : ''}: ${change.detail}`
}

/** The route's verdict on a schema sent exactly as declared (what stock DSH sends). */
export function stockRouteVerdict(declared: unknown, profile: ProfileId): StockRouteVerdict {
  if (!isPlainRecord(declared))
    return {
      verdict: 'refused',
      reasons: ['(root): the inputSchema is not a JSON object, so no route can take it'],
    }
  let verdict: RouteVerdict
  try {
    verdict = judgeRoute(declared as JsonObject, profile)
  } catch (error) {
    return { verdict: 'refused', reasons: [`the route check failed: ${(error as Error).message}`] }
  }
  if (verdict.refusals.length > 0)
    return { verdict: 'refused', reasons: verdict.refusals.slice(0, REASONS_SHOWN).map(formatViolation) }
  if (verdict.misreads.length > 0)
    return { verdict: 'misread', reasons: verdict.misreads.slice(0, REASONS_SHOWN).map(formatViolation) }
  return { verdict: 'as-is', reasons: [] }
}

/**
 * The verdict on what the MCP boundary serves for one route (`judgeMcpToolList(tools, { profile })`); `listed` is the
 * tool as the server listed it, so `as-is` means the very same `inputSchema` object reaches the wire.
 */
export function toolRouteVerdict(listed: unknown, verdict: McpToolVerdict): ToolRouteVerdict {
  if (verdict.status === 'isolated' || verdict.tool === undefined || verdict.projection === undefined) {
    const reasons = verdict.problems.flatMap((problem) =>
      problem.violations.slice(0, REASONS_SHOWN).map((v) => `${problem.schema}: ${formatViolation(v)}`),
    )
    return { verdict: 'refused', reasons, changes: [], decoder: [] }
  }
  const { input } = verdict.projection
  const repairs = verdict.repairs.flatMap((repair) =>
    repair.repaired.map((v) => `${repair.schema} ${v.pointer || '(root)'} repaired ${v.rule}: ${v.message}`),
  )
  const dropped = verdict.problems.map(
    (problem) =>
      `${problem.schema} dropped (${problem.effect}): ${problem.violations.map(formatViolation).join('; ')}`,
  )
  const changes = [...repairs, ...dropped, ...input.changes.map(showChange)]
  const decoder = input.changes.flatMap((change) => {
    const note = decoderNote(change)
    return note === undefined ? [] : [`${change.pointer || '(root)'}: ${note}`]
  })
  const listedInput = isPlainRecord(listed) ? listed.inputSchema : undefined
  const asIs = input.wire === listedInput && input.changes.length === 0
  const kind: ToolRouteVerdictKind =
    input.decoder.kind !== 'identity' ? 'decoded' : asIs ? 'as-is' : 'repaired'
  return { verdict: kind, reasons: [], changes, decoder }
}
