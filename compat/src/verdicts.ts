/**
 * The two verdicts on one tool for one route, both computed by `@dsh-harden/tools` as it is when the table runs (so a
 * change to the rules changes the table):
 *
 * - **before** (stock DSH): the SDK's whole-page check at intake, then the declared schema sent unchanged and judged
 *   by the route's written contract (`judgeRoute`).
 * - **after** (dsh-harden): the tolerant MCP boundary (`judgeMcpToolList` with the route), which repairs, projects and
 *   refuses per tool.
 */
import {
  decoderNote,
  formatViolation,
  isPlainRecord,
  type JsonObject,
  judgeRoute,
  type McpToolVerdict,
  type ProfileId,
  type ProjectionChange,
  type RouteVerdict,
} from '@dsh-harden/tools'

/** Stock: sent as declared and read right, sent but read back wrong (no decoder), or refused. */
export type BeforeVerdict = 'as-is' | 'misread' | 'refused'
/** With dsh-harden: sent as declared, repaired (no decoder needed), projected with a decoder, or refused. */
export type AfterVerdict = 'as-is' | 'repaired' | 'decoded' | 'refused'

export interface Before {
  readonly verdict: BeforeVerdict
  /** The official SDK rejected the server's whole page, so stock DSH registers none of its tools. */
  readonly lostAtIntake: boolean
  /** The route's own verdict on the declared schema, whatever intake did. */
  readonly route: BeforeVerdict
  readonly reasons: readonly string[]
  /**
   * On routes DSH reaches through pi-ai: the route's verdict on the schema pi-ai actually sends (pi-ai drops a root
   * `$schema` on Anthropic, for one), intake loss included. Absent elsewhere.
   */
  readonly viaPiAi?: { readonly verdict: BeforeVerdict; readonly reasons: readonly string[] } | undefined
}

export interface After {
  readonly verdict: AfterVerdict
  readonly reasons: readonly string[]
  /** The MCP boundary's repairs, then the projection's changes, each as `pointer action: detail`. */
  readonly changes: readonly string[]
  /** Why a decoder is needed (one line per change that needs one). */
  readonly decoder: readonly string[]
}

const REASONS_SHOWN = 5

/**
 * @param piAiSent - the schema pi-ai sends for the declared one, on routes DSH reaches through pi-ai (`piAiSends`);
 *   `{ error }` when pi-ai builds no request for it.
 */
export function beforeVerdict(
  declared: unknown,
  profile: ProfileId,
  sdkRejection: string | undefined,
  piAiSent?: { readonly sent: unknown } | { readonly error: string },
): Before {
  const route = routeVerdict(declared, profile)
  const lost =
    sdkRejection === undefined
      ? undefined
      : `stock intake: the MCP SDK's ListToolsResultSchema rejects this server's whole tools/list (${sdkRejection}), so DSH registers none of its tools`
  const piAi =
    piAiSent === undefined
      ? undefined
      : 'error' in piAiSent
        ? { verdict: 'refused' as const, reasons: [`pi-ai builds no request: ${piAiSent.error}`] }
        : routeVerdict(piAiSent.sent, profile)
  const viaPiAi =
    piAi === undefined || lost === undefined
      ? piAi
      : { verdict: 'refused' as const, reasons: [lost, ...piAi.reasons] }
  if (lost === undefined) return { ...route, lostAtIntake: false, route: route.verdict, viaPiAi }
  return {
    verdict: 'refused',
    lostAtIntake: true,
    route: route.verdict,
    reasons: [lost, ...route.reasons],
    viaPiAi,
  }
}

function routeVerdict(declared: unknown, profile: ProfileId): { verdict: BeforeVerdict; reasons: string[] } {
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

const showChange = (change: ProjectionChange): string =>
  `${change.pointer || '(root)'} ${change.action}${change.keyword ? ` ${change.keyword}` : ''}: ${change.detail}`

export function afterVerdict(listed: unknown, verdict: McpToolVerdict): After {
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
  const kind: AfterVerdict = input.decoder.kind !== 'identity' ? 'decoded' : asIs ? 'as-is' : 'repaired'
  return { verdict: kind, reasons: [], changes, decoder }
}
