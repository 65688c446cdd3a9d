import {
  decoderNote,
  judgeMcpToolList,
  type McpToolVerdict,
  type ProfileId,
  type ProjectionChange,
  type SchemaViolation,
  type ToolRouteVerdictKind,
  toolRouteVerdict,
} from '@dsh-harden/tools'
import { toolNameRenames } from '../mcp/route-door.ts'

/** Which part of the tool a change or violation is about; pointers are into that schema. */
export type SchemaKey = 'inputSchema' | 'outputSchema'

export interface ReportChange {
  readonly schema: SchemaKey
  readonly pointer: string
  /**
   * A projection action; `repaired`: a one-meaning mistake fixed before projecting; `dropped-output`: an output
   * schema no client could use, left out (the tool stays, its output is not validated).
   */
  readonly action: ProjectionChange['action'] | 'repaired' | 'dropped-output'
  readonly keyword?: string | undefined
  readonly detail: string
  /**
   * Set when the change alters what the model sends: what a server reached without a decoder (the overlay, `mcp
   * repair` or the gateway) would receive instead.
   */
  readonly needsDecoder?: string | undefined
}

export interface ReportViolation {
  /** `tool` when the entry itself is not a tool (no object, no name, a name listed twice). */
  readonly schema: SchemaKey | 'tool'
  readonly pointer: string
  readonly rule: string
  readonly message: string
  readonly hint: string
}

export interface ToolVerdict {
  readonly name: string
  /**
   * The name the route gets instead, when it refuses `name` (`toolNames` of the profile): the model calls the tool by
   * it, so it needs mapping back (the overlay, `mcp repair --route`).
   */
  readonly wireName?: string | undefined
  readonly status: 'unchanged' | 'changed' | 'rejected'
  /**
   * The route's verdict in the words of `pnpm compat` and `mcp check` (`toolRouteVerdict`, the one function all three
   * call): sent as is, repaired, projected with a decoder, or refused.
   */
  readonly verdict: ToolRouteVerdictKind
  readonly changes: readonly ReportChange[]
  readonly violations: readonly ReportViolation[]
}

export interface Sanitized {
  /** The projected tools, rejected ones left out; an unchanged tool is the very object that was read. */
  readonly tools: readonly unknown[]
  readonly report: readonly ToolVerdict[]
}

export interface SanitizeOptions {
  readonly profile: ProfileId
  /** Repair `{}`, bare property tables and the other one-meaning mistakes instead of rejecting them. */
  readonly repair: boolean
}

/**
 * The MCP boundary of `@dsh-harden/tools` (`judgeMcpToolList`, `contract` policy) with the profile's projection: the
 * same verdict and wire schema the DSH intake, the repair proxy and the gateway serve. Each tool on its own; then the
 * names the route refuses get their wire names, one table over every tool passed on, as the overlay renames.
 */
export function sanitizeTools(tools: readonly unknown[], options: SanitizeOptions): Sanitized {
  const { tools: out, report } = projectTools(tools, options)
  const names = report.flatMap((tool) => (tool.status === 'rejected' ? [] : [tool.name]))
  const renames = toolNameRenames(names, options.profile)
  if (renames === undefined) return { tools: out, report }
  let at = 0
  const renamedReport = report.map((tool): ToolVerdict => {
    if (tool.status === 'rejected') return tool
    const index = at++
    const wireName = renames.toWire.get(tool.name)
    if (wireName === undefined) return tool
    out[index] = { ...(out[index] as Record<string, unknown>), name: wireName }
    return { ...tool, status: 'changed', wireName }
  })
  return { tools: out, report: renamedReport }
}

function projectTools(
  tools: readonly unknown[],
  options: SanitizeOptions,
): { tools: unknown[]; report: ToolVerdict[] } {
  const out: unknown[] = []
  const report: ToolVerdict[] = []
  for (const verdict of judgeMcpToolList(tools, { profile: options.profile })) {
    const { name } = verdict
    const route = toolRouteVerdict(tools[verdict.entry], verdict, options.profile).verdict
    const repairs = repairChanges(verdict)
    if (verdict.tool === undefined || verdict.projection === undefined) {
      report.push(
        rejected(
          name,
          repairs,
          verdict.problems.flatMap((p) => located(p.schema, p.violations)),
        ),
      )
      continue
    }
    // Without repairs the tool is refused here, whatever the route would make of the repaired one.
    if (!options.repair && verdict.repairs.length > 0) {
      report.push(
        rejected(
          name,
          [],
          verdict.repairs.flatMap((r) => located(r.schema, r.repaired)),
        ),
      )
      continue
    }
    const { input, output } = verdict.projection
    const changes = [
      ...repairs,
      ...verdict.problems.flatMap((p) => p.violations.map((v) => droppedOutput(v))),
      ...input.changes.map((change) => reported('inputSchema', change)),
      ...(output?.changes ?? []).map((change) => reported('outputSchema', change)),
    ]
    const served = verdict.tool
    const same =
      served === tools[verdict.entry] &&
      input.wire === served.inputSchema &&
      (output === undefined || output.wire === served.outputSchema)
    if (same && changes.length === 0) {
      report.push({ name, status: 'unchanged', verdict: route, changes, violations: [] })
      out.push(served)
      continue
    }
    // Spread keeps the key order, so only the schemas differ from what the server sent.
    const projected: Record<string, unknown> = { ...served, inputSchema: input.wire }
    if (output !== undefined) projected.outputSchema = output.wire
    report.push({ name, status: 'changed', verdict: route, changes, violations: [] })
    out.push(projected)
  }
  return { tools: out, report }
}

function repairChanges(verdict: McpToolVerdict): ReportChange[] {
  return verdict.repairs.flatMap((repair) =>
    repair.repaired.map((violation) => ({
      schema: repair.schema,
      pointer: violation.pointer,
      action: 'repaired' as const,
      detail: `${violation.rule} (one meaning, repaired): ${violation.message}`,
    })),
  )
}

function droppedOutput(violation: SchemaViolation): ReportChange {
  return {
    schema: 'outputSchema',
    pointer: violation.pointer,
    action: 'dropped-output',
    detail: `${violation.rule}: ${violation.message}; the tool is kept without an output schema`,
  }
}

function reported(schema: SchemaKey, change: ProjectionChange): ReportChange {
  const note = decoderNote(change)
  return note === undefined ? { schema, ...change } : { schema, ...change, needsDecoder: note }
}

function located(
  schema: ReportViolation['schema'],
  violations: readonly SchemaViolation[],
): ReportViolation[] {
  return violations.map((v) => ({
    schema,
    pointer: v.pointer,
    rule: v.rule,
    message: v.message,
    hint: v.hint,
  }))
}

function rejected(name: string, changes: readonly ReportChange[], violations: readonly ReportViolation[]) {
  return { name, status: 'rejected', verdict: 'refused', changes, violations } satisfies ToolVerdict
}
