/**
 * The two verdicts on one tool for one route, both computed by `@dsh-harden/tools` as it is when the table runs (so a
 * change to the rules changes the table):
 *
 * - **before** (stock DSH): the SDK's whole-page check at intake, then the declared schema sent unchanged under the
 *   declared name, both judged by the route's written contract (`stockRouteVerdict`).
 * - **after** (dsh-harden): the tolerant MCP boundary (`judgeMcpToolList` with the route), which repairs, projects and
 *   refuses per tool.
 */
import {
  type McpToolVerdict,
  type ProfileId,
  type StockRouteVerdictKind,
  stockRouteVerdict,
  type ToolRouteVerdictKind,
  toolRouteVerdict,
} from '@dsh-harden/tools'

/** Stock: sent as declared and read right, sent but read back wrong (no decoder), or refused. */
export type BeforeVerdict = StockRouteVerdictKind
/** With dsh-harden: sent as declared, repaired (no decoder needed), projected with a decoder, or refused. */
export type AfterVerdict = ToolRouteVerdictKind

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

/**
 * @param listed - the tool as the server listed it: its `inputSchema` and `name` are what stock DSH sends.
 * @param piAiSent - the schema pi-ai sends for the declared one, on routes DSH reaches through pi-ai (`piAiSends`);
 *   `{ error }` when pi-ai builds no request for it.
 */
export function beforeVerdict(
  listed: Readonly<Record<string, unknown>>,
  profile: ProfileId,
  sdkRejection: string | undefined,
  piAiSent?: { readonly sent: unknown } | { readonly error: string },
): Before {
  const name = typeof listed.name === 'string' ? listed.name : undefined
  const route = routeVerdict(listed.inputSchema, profile, name)
  const lost =
    sdkRejection === undefined
      ? undefined
      : `stock intake: the MCP SDK's ListToolsResultSchema rejects this server's whole tools/list (${sdkRejection}), so DSH registers none of its tools`
  const piAi =
    piAiSent === undefined
      ? undefined
      : 'error' in piAiSent
        ? { verdict: 'refused' as const, reasons: [`pi-ai builds no request: ${piAiSent.error}`] }
        : routeVerdict(piAiSent.sent, profile, name)
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

// The verdict is decided in @dsh-harden/tools (`stockRouteVerdict`), the one function sanitize and mcp check call too.
function routeVerdict(
  declared: unknown,
  profile: ProfileId,
  name: string | undefined,
): { verdict: BeforeVerdict; reasons: string[] } {
  const { verdict, reasons } = stockRouteVerdict(declared, profile, name)
  return { verdict, reasons: [...reasons] }
}

// Decided in @dsh-harden/tools (`toolRouteVerdict`), the one function sanitize and mcp check call too.
export function afterVerdict(listed: unknown, verdict: McpToolVerdict, profile: ProfileId): After {
  return toolRouteVerdict(listed, verdict, profile)
}
