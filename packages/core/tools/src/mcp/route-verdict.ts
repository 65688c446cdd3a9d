import { formatViolation, type SchemaViolation } from '../check/violation.ts'
import type { JsonObject } from '../json/json-value.ts'
import { isPlainRecord } from '../json/plain-data.ts'
import { meetsName } from '../projection/names.ts'
import { profileRules } from '../projection/profiles.ts'
import type { ProfileId, ProjectionChange } from '../projection/types.ts'
import { decoderNote, RENAMED_TOOL_NOTE } from './decoding.ts'
import type { McpToolVerdict } from './mcp-tool.ts'
import { judgeRoute, type RouteVerdict } from './route-refusal.ts'

/**
 * The one verdict on a listed tool for one route, in the words of the compatibility table (`pnpm compat`),
 * `dsh-harden sanitize` and `dsh-harden mcp check`, all of which call these functions:
 *
 * - with dsh-harden (`toolRouteVerdict`): `as-is` (the wire schema is the very object the server listed, under the
 *   name it listed), `repaired` (sent changed, no decoder needed), `decoded` (projected with a decoder, or renamed
 *   because the route refuses the tool's name) or `refused` (isolated, or the route would still refuse the wire);
 * - stock (`stockRouteVerdict`): the declared schema sent unchanged under the declared name: `as-is`, `misread`
 *   (taken, but the arguments come back wrong) or `refused` (the schema or the name).
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

/**
 * Why `profile` refuses a tool called `name`, or `undefined` when its `toolNames` pattern takes it. Stock DSH sends the
 * name as declared, so one such tool fails every request that lists it.
 */
export function toolNameRefusal(name: string, profile: ProfileId): SchemaViolation | undefined {
  const rule = profileRules(profile).toolNames
  if (meetsName(name, rule)) return undefined
  return {
    pointer: '/name',
    rule: 'profile-shape',
    message: `${profile}: the tool name ${JSON.stringify(name)} is outside the route's pattern ${rule.text}`,
    hint: `serve it through a door given the route (dsh-harden sanitize, mcp repair or mcp gateway with --route ${profile}) or the dsh-harden overlay: each sends a name the route takes and maps calls back`,
  }
}

/**
 * The route's verdict on a tool sent exactly as declared (what stock DSH sends): its schema, and its `name` when given
 * (the name's refusal comes first). Without `name` only the schema is judged.
 */
export function stockRouteVerdict(declared: unknown, profile: ProfileId, name?: string): StockRouteVerdict {
  const nameRefusal = name === undefined ? undefined : toolNameRefusal(name, profile)
  const named = nameRefusal === undefined ? [] : [formatViolation(nameRefusal)]
  const refused = (reasons: readonly string[]): StockRouteVerdict => ({
    verdict: 'refused',
    reasons: [...named, ...reasons].slice(0, REASONS_SHOWN),
  })
  if (!isPlainRecord(declared))
    return refused(['(root): the inputSchema is not a JSON object, so no route can take it'])
  let verdict: RouteVerdict
  try {
    verdict = judgeRoute(declared as JsonObject, profile)
  } catch (error) {
    return refused([`the route check failed: ${(error as Error).message}`])
  }
  if (named.length > 0 || verdict.refusals.length > 0) return refused(verdict.refusals.map(formatViolation))
  if (verdict.misreads.length > 0)
    return { verdict: 'misread', reasons: verdict.misreads.slice(0, REASONS_SHOWN).map(formatViolation) }
  return { verdict: 'as-is', reasons: [] }
}

/**
 * The verdict on what the MCP boundary serves for one route (`judgeMcpToolList(tools, { profile })`); `listed` is the
 * tool as the server listed it, so `as-is` means the very same `inputSchema` object reaches the wire. Given the same
 * `profile`, a tool whose name the route refuses is `decoded`: every door given the route renames it on the wire
 * (`renameAll` over the route's `toolNames`) and maps calls back. Without `profile` the name is not judged.
 */
export function toolRouteVerdict(
  listed: unknown,
  verdict: McpToolVerdict,
  profile?: ProfileId,
): ToolRouteVerdict {
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
  const nameRefusal = profile === undefined ? undefined : toolNameRefusal(verdict.name, profile)
  const renamed =
    nameRefusal === undefined ? [] : [`/name renamed: ${nameRefusal.message}; sent under a name it takes`]
  const changes = [...repairs, ...dropped, ...renamed, ...input.changes.map(showChange)]
  const decoder = input.changes.flatMap((change) => {
    const note = decoderNote(change)
    return note === undefined ? [] : [`${change.pointer || '(root)'}: ${note}`]
  })
  if (nameRefusal !== undefined) decoder.unshift(`/name: ${RENAMED_TOOL_NOTE}`)
  const listedInput = isPlainRecord(listed) ? listed.inputSchema : undefined
  const asIs = input.wire === listedInput && input.changes.length === 0
  const kind: ToolRouteVerdictKind =
    input.decoder.kind !== 'identity' || nameRefusal !== undefined ? 'decoded' : asIs ? 'as-is' : 'repaired'
  return { verdict: kind, reasons: [], changes, decoder }
}
