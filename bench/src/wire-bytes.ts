import { type JsonObject, judgeMcpToolList, PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'
import type { SizeResult } from './gateway-report.ts'

/** One tool of a corpus, with where it came from (`server@version`, `package@version`). */
export interface CorpusTool {
  readonly source: string
  readonly name: string
  readonly inputSchema: unknown
}

/** One route's wire bytes over a corpus: stock's and ours, and the tool that grew most. */
export interface RouteBytes {
  readonly profile: ProfileId
  readonly tools: number
  readonly stockBytes: number
  readonly wireBytes: number
  readonly worst: { readonly tool: string; readonly ratio: number } | undefined
  /** Tools the MCP boundary refused (no wire to compare) or the byte budget withheld, with why. */
  readonly left: readonly string[]
}

/**
 * Wire bytes per route against stock's, exact (no timing): stock sends the declared schema, so its bytes are
 * `JSON.stringify(inputSchema)`; ours are `JSON.stringify` of what the MCP boundary serves for the route
 * (`judgeMcpToolList(tools, { profile })`: the one-meaning repairs, then the projection). A tool the boundary
 * refuses or the budget withholds has no wire: it is left out of both sums and listed.
 */
export function routeBytes(corpus: readonly CorpusTool[], profile: ProfileId): RouteBytes {
  // Judged per source, as each server's `tools/list` is (two servers may both list a `create_issue`).
  const bySource = new Map<string, CorpusTool[]>()
  for (const tool of corpus) bySource.set(tool.source, [...(bySource.get(tool.source) ?? []), tool])
  const verdicts = [...bySource.values()].flatMap((tools) =>
    judgeMcpToolList(
      tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })),
      { profile },
    ).map((verdict, index) => ({ verdict, tool: tools[index]! })),
  )
  let stockBytes = 0
  let wireBytes = 0
  let worst: RouteBytes['worst']
  const left: string[] = []
  for (const { verdict, tool } of verdicts) {
    const label = `${tool.source} ${tool.name}`
    const projection = verdict.projection?.input
    if (projection === undefined || projection.withheld !== undefined) {
      left.push(`${label}: ${projection?.withheld ?? verdict.status}`)
      continue
    }
    const stock = JSON.stringify(tool.inputSchema).length
    const wire = JSON.stringify(projection.wire as JsonObject).length
    stockBytes += stock
    wireBytes += wire
    const ratio = wire / stock
    if (worst === undefined || ratio > worst.ratio) worst = { tool: label, ratio }
  }
  return { profile, tools: corpus.length, stockBytes, wireBytes, worst, left }
}

/** Every route's bytes over `corpus`, as size rows for the bench report. */
export function wireByteSizes(corpusName: string, corpus: readonly CorpusTool[]): SizeResult[] {
  return PROFILE_IDS.map((profile) => {
    const bytes = routeBytes(corpus, profile)
    const notes = [
      `${bytes.tools} tools; worst single tool ${bytes.worst === undefined ? '–' : `${bytes.worst.ratio.toFixed(3)}× (${bytes.worst.tool})`}`,
      ...bytes.left.map((reason) => `left out: ${reason}`),
    ]
    return {
      kind: 'size',
      name: `wire bytes ${corpusName}: ${profile}`,
      peer: { label: 'stock', bytes: bytes.stockBytes },
      subject: { label: 'dsh-harden', bytes: bytes.wireBytes },
      ratio: bytes.wireBytes / bytes.stockBytes,
      notes,
    }
  })
}
