import {
  type JsonObject,
  judgeMcpToolList,
  judgeRoute,
  PROFILE_IDS,
  type ProfileId,
  showPointer,
  stockRouteVerdict,
  type ToolRouteVerdictKind,
  toolRouteVerdict,
} from '@dsh-harden/tools'
import type { RawTool } from '../tool-schemas.ts'

export interface ToolRejection {
  readonly tool: string
  /** `pointer message` of the first reason. */
  readonly reason: string
}

/**
 * How one model route meets the listed tools, as judged by `@dsh-harden/tools`: `stockRouteVerdict` for the tools as
 * sent, schema and name (the stock verdict `pnpm compat` shows), `judgeMcpToolList` and `toolRouteVerdict` with the
 * profile for what dsh-harden serves.
 */
export interface ProfileVerdict {
  readonly profile: ProfileId
  readonly tools: number
  /** Stock DSH passes `inputSchema` and `name` through verbatim; the route refuses these (and with them, every request). */
  readonly verbatim: readonly ToolRejection[]
  /** Taken by the route as sent, but the model's arguments come back changed (#1149, #1122); dsh-harden decodes. */
  readonly misread: readonly ToolRejection[]
  /** Taken by the route as sent, but changed on the wire by dsh-harden (such as a dropped `$schema`): no refusal. */
  readonly wireOnly: readonly ToolRejection[]
  /** After dsh-harden's MCP boundary (repair what has one meaning, isolate the rest) and projection for the route. */
  readonly hardened: readonly ToolRejection[]
  /**
   * Every tool's verdict with dsh-harden, by name, in the words of `pnpm compat` and `dsh-harden sanitize`
   * (`toolRouteVerdict`, the one function all three call): sent as is, repaired, projected with a decoder, refused.
   */
  readonly verdicts: Readonly<Record<ToolRouteVerdictKind, readonly string[]>>
}

function first(violations: readonly { pointer: string; message: string }[]): string {
  const violation = violations[0]
  return violation === undefined ? '' : `${showPointer(violation.pointer)} ${violation.message}`
}

function nameOf(tool: RawTool, index: number): string {
  return typeof tool.name === 'string' ? tool.name : `#${index}`
}

function asSent(tools: readonly RawTool[], profile: ProfileId) {
  const verbatim: ToolRejection[] = []
  const misread: ToolRejection[] = []
  const wireOnly: ToolRejection[] = []
  tools.forEach((tool, index) => {
    const name = typeof tool.name === 'string' ? tool.name : undefined
    const stock = stockRouteVerdict(tool.inputSchema, profile, name)
    const reason = stock.reasons[0] ?? ''
    if (stock.verdict === 'refused') verbatim.push({ tool: nameOf(tool, index), reason })
    else if (stock.verdict === 'misread') misread.push({ tool: nameOf(tool, index), reason })
    else {
      // Taken as sent; what projection still changes on the wire (a dropped `$schema`) is worth a line, not a warning.
      const changes = judgeRoute(tool.inputSchema as JsonObject, profile).wireChanges
      if (changes.length > 0) wireOnly.push({ tool: nameOf(tool, index), reason: first(changes) })
    }
  })
  return { verbatim, misread, wireOnly }
}

export function profileVerdicts(tools: readonly RawTool[]): ProfileVerdict[] {
  return PROFILE_IDS.map((profile) => {
    const hardened: ToolRejection[] = []
    const verdicts: Record<ToolRouteVerdictKind, string[]> = {
      'as-is': [],
      repaired: [],
      decoded: [],
      refused: [],
    }
    for (const verdict of judgeMcpToolList(tools, { profile })) {
      verdicts[toolRouteVerdict(tools[verdict.entry], verdict, profile).verdict].push(verdict.name)
      if (verdict.status !== 'isolated') continue
      const violations = verdict.problems.flatMap((problem) => problem.violations)
      hardened.push({
        tool: verdict.name,
        reason: `isolated: ${violations[0]?.rule ?? ''} ${first(violations)}`,
      })
    }
    return { profile, tools: tools.length, ...asSent(tools, profile), hardened, verdicts }
  })
}
