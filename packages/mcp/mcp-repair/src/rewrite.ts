import { type IntakeResult, intakeToolList } from '@dsh-harden/mcp-client'
import {
  arrayElements,
  type IdKey,
  idKey,
  type Span,
  skipSpace,
  toolsArraySpan,
} from '@dsh-harden/mcp-transport'
import type { ServedPage, ToolRoute } from './route.ts'

/** What the proxy did to one `tools/list` response. */
export interface ResponseRepair {
  readonly id: unknown
  /** Tools in the response as the server listed them. */
  readonly listed: number
  readonly result: IntakeResult
  /** With a route: how the page went out for it (renamed tools, projected schemas). */
  readonly route?: ServedPage | undefined
}

export interface RewriteOutcome {
  /** The text to forward; the very same string when nothing needed a change. */
  readonly text: string
  /** One entry per `tools/list` response that changed. */
  readonly repairs: readonly ResponseRepair[]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

interface Splice extends Span {
  readonly text: string
}

function routeChanges(page: ServedPage | undefined): boolean {
  return page !== undefined && (page.renamed.size > 0 || page.projected.length > 0)
}

/** The new text of one response's tools array, or undefined when intake (and the route) changed nothing. */
function rewriteTools(
  text: string,
  message: Record<string, unknown>,
  at: number,
  server: string,
  route: ToolRoute | undefined,
): { splice: Splice; repair: ResponseRepair } | undefined {
  const result = message.result
  if (!isRecord(result) || !Array.isArray(result.tools)) return undefined
  const tools = result.tools as unknown[]
  const intake = intakeToolList(tools, {
    server,
    policy: 'spec',
    ...(route === undefined ? {} : { profile: route.profile }),
  })
  const page = route?.servePage(intake)
  if (intake.repairs.length === 0 && intake.diagnostics.length === 0 && !routeChanges(page)) return undefined
  const span = toolsArraySpan(text, at)
  if (span === undefined) return undefined
  const elements = arrayElements(text, span.start)
  if (elements.length !== tools.length) return undefined
  const original = new Map<unknown, number>(tools.map((tool, index) => [tool, index]))
  const parts = (page?.tools ?? intake.tools).map((tool) => {
    const index = original.get(tool)
    // A compliant tool is copied from the original bytes, so what the client receives for it is what the server sent.
    return index === undefined
      ? JSON.stringify(tool)
      : text.slice(elements[index]!.start, elements[index]!.end)
  })
  return {
    splice: { start: span.start, end: span.end, text: `[${parts.join(',')}]` },
    repair: {
      id: message.id,
      listed: tools.length,
      result: intake,
      ...(page === undefined ? {} : { route: page }),
    },
  }
}

/**
 * Rewrites the `tools/list` responses in one JSON-RPC message text (a single response or a batch), given the parsed
 * value and which ids are pending `tools/list` requests. Only the tools array of such a response changes, and in it
 * only the tools that need it; every other byte is copied. Responses to other requests are never touched. With a
 * `route`, each tool also goes out as the route takes it (`ToolRoute.servePage`).
 */
export function rewriteToolsListText(
  text: string,
  parsed: unknown,
  isToolsList: (key: IdKey) => boolean,
  server: string,
  route?: ToolRoute,
): RewriteOutcome {
  const splices: Splice[] = []
  const repairs: ResponseRepair[] = []
  const visit = (message: unknown, at: number) => {
    if (!isRecord(message) || Object.hasOwn(message, 'method')) return
    const key = idKey(message.id)
    if (key === undefined || !isToolsList(key)) return
    const change = rewriteTools(text, message, at, server, route)
    if (change === undefined) return
    splices.push(change.splice)
    repairs.push(change.repair)
  }
  const start = skipSpace(text, 0)
  if (Array.isArray(parsed)) {
    const elements = arrayElements(text, start)
    if (elements.length === parsed.length)
      for (const [i, message] of parsed.entries()) visit(message, elements[i]!.start)
  } else visit(parsed, start)
  if (splices.length === 0) return { text, repairs }
  let out = ''
  let cursor = 0
  for (const splice of splices.sort((a, b) => a.start - b.start)) {
    out += text.slice(cursor, splice.start) + splice.text
    cursor = splice.end
  }
  return { text: out + text.slice(cursor), repairs }
}

type Violation = IntakeResult['diagnostics'][number]['violations'][number]

function formatViolation(v: Violation): string {
  return `${v.pointer || '(root)'} ${v.rule}: ${v.message}`
}

/**
 * The one log line per changed response: `repaired N of M tools: …`, then what the route changed; `served M tools for
 * route <p>: …` when only the route changed them.
 */
export function describeRepair(repair: ResponseRepair): string {
  const { result, listed } = repair
  const changed = new Map<string, string[]>()
  const note = (tool: string, what: string) => changed.set(tool, [...(changed.get(tool) ?? []), what])
  for (const r of result.repairs)
    note(r.tool, `${r.schema} ${r.repaired.map((v) => `${v.pointer || '(root)'} ${v.rule}`).join(', ')}`)
  for (const d of result.diagnostics)
    if (d.effect === 'output-unchecked')
      note(d.tool, `outputSchema dropped: ${d.violations.map(formatViolation).join('; ')}`)
  const isolated = result.diagnostics.filter((d) => d.effect === 'isolated')
  const routed =
    repair.route !== undefined && routeChanges(repair.route) ? describeRoute(repair.route) : undefined
  // Nothing repaired or left out: the line says only what the route changed.
  if (changed.size === 0 && isolated.length === 0 && routed !== undefined)
    return `served ${listed} tools ${routed}`
  const list = [...changed].map(([tool, what]) => `${tool} (${what.join('; ')})`).join(', ')
  let line = `repaired ${changed.size} of ${listed} tools${list ? `: ${list}` : ''}`
  if (isolated.length > 0) {
    const names = isolated
      .map((d) => `${d.tool} (${d.violations.map(formatViolation).join('; ')})`)
      .join(', ')
    line += `; isolated ${isolated.length} (left out, the rest are served): ${names}`
  }
  return routed === undefined ? line : `${line}; ${routed}`
}

function describeRoute(page: ServedPage): string {
  const parts: string[] = []
  if (page.renamed.size > 0)
    parts.push(
      `renamed ${page.renamed.size} (a name the route refuses; calls to the new name reach the server under its own): ${[
        ...page.renamed,
      ]
        .map(([declared, wire]) => `${declared} -> ${wire}`)
        .join(', ')}`,
    )
  if (page.projected.length > 0)
    parts.push(
      `projected ${page.projected.length} input schema(s), calls read back before the server sees them: ${page.projected.join(', ')}`,
    )
  return `for route ${page.profile}: ${parts.join('; ')}`
}
