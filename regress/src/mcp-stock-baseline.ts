/**
 * The "stock" baseline of the seed-001 report: does each real MCP tool's `inputSchema` pass stock DSH's
 * `assertSupportedJsonSchema` (the subset check `dsh-mcp-client` applies to `outputSchema` but not to
 * `inputSchema`)? Violations are grouped into kinds so a report can say *what* falls outside the subset.
 */
import { assertSupportedJsonSchema, JsonSchemaError } from '@deepseek-ai/dsh-tools'
import type { ListedTool, ServerToolList } from '@dsh-harden/testkit/mcp-servers'

export interface ToolVerdict {
  readonly tool: string
  readonly ok: boolean
  readonly violations: readonly string[]
}

export interface ServerBaseline {
  readonly server: string
  readonly tools: number
  readonly pass: number
  readonly fail: number
  readonly verdicts: readonly ToolVerdict[]
  /** Violation kind → number of tools showing it at least once. */
  readonly kinds: ReadonlyMap<string, number>
}

/** Run stock DSH's subset check on one schema; non-`JsonSchemaError` throws are reported as violations too. */
export function stockVerdict(tool: ListedTool): ToolVerdict {
  try {
    assertSupportedJsonSchema(tool.inputSchema)
    return { tool: tool.name, ok: true, violations: [] }
  } catch (error) {
    const violations =
      error instanceof JsonSchemaError ? [...error.violations] : [`threw ${(error as Error).name}: ${error}`]
    return { tool: tool.name, ok: false, violations }
  }
}

/**
 * Reduce a violation message to its kind by dropping the JSON path to the node:
 * `schema.properties.x.minimum is not a supported keyword (...)` → `minimum is not a supported keyword`;
 * messages about the node itself (`... must be a schema object`) become `<node> must be a schema object`.
 */
export function violationKind(message: string): string {
  const space = message.indexOf(' ')
  if (space === -1) return message
  const path = message.slice(0, space)
  const rest = message.slice(space + 1).replace(/ \(subset: .*\)$/, '')
  const segments = path.split('.')
  const last = (segments.at(-1) ?? '').replace(/\[\d+\]$/, '')
  const parent = segments.at(-2)
  const isNode = segments.length === 1 || parent === 'properties' || /\[\d+\]$/.test(segments.at(-1) ?? '')
  return `${isNode ? '<node>' : last} ${rest.replace(/"[^"]*"/g, '"…"')}`
}

export function stockBaseline(list: Pick<ServerToolList, 'server' | 'tools'>): ServerBaseline {
  const verdicts = list.tools.map(stockVerdict)
  const kinds = new Map<string, number>()
  for (const verdict of verdicts) {
    for (const kind of new Set(verdict.violations.map(violationKind)))
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  const pass = verdicts.filter((verdict) => verdict.ok).length
  return {
    server: list.server,
    tools: verdicts.length,
    pass,
    fail: verdicts.length - pass,
    verdicts,
    kinds: new Map([...kinds].sort((a, b) => b[1] - a[1])),
  }
}

/** Plain-text table: server, tool count, pass/fail, top violation kinds (tools affected). */
export function formatBaselineTable(rows: readonly ServerBaseline[], topKinds = 4): string {
  const header = ['server', 'tools', 'pass', 'fail', 'most common violation kinds (tools affected)']
  const body = rows.map((row) => [
    row.server,
    String(row.tools),
    String(row.pass),
    String(row.fail),
    [...row.kinds]
      .slice(0, topKinds)
      .map(([kind, count]) => `${kind} ×${count}`)
      .join('; ') || '-',
  ])
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((line) => line[column]!.length)),
  )
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join(' | ')
  return [render(header), widths.map((width) => '-'.repeat(width)).join('-|-'), ...body.map(render)].join(
    '\n',
  )
}
