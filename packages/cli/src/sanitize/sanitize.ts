import {
  checkProfileContract,
  checkToolParameters,
  type JsonObject,
  type ProfileId,
  type ProjectionChange,
  projectParameters,
  repairParameters,
  type SchemaViolation,
} from '@dsh-harden/tools'

/** Which part of the tool a change or violation is about; pointers are into that schema. */
export type SchemaKey = 'inputSchema' | 'outputSchema'

export interface ReportChange {
  readonly schema: SchemaKey
  readonly pointer: string
  /** A projection action, or `repaired`: a root-contract mistake with exactly one meaning, fixed before projecting. */
  readonly action: ProjectionChange['action'] | 'repaired'
  readonly keyword?: string | undefined
  readonly detail: string
}

export interface ReportViolation {
  /** `tool` when the entry itself is not a tool (no object, no name). */
  readonly schema: SchemaKey | 'tool'
  readonly pointer: string
  readonly rule: string
  readonly message: string
  readonly hint: string
}

export interface ToolVerdict {
  readonly name: string
  readonly status: 'unchanged' | 'changed' | 'rejected'
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

type ToolRecord = Record<string, unknown>

/** Projects every tool on its own: one tool that cannot be projected is rejected, the others still come out. */
export function sanitizeTools(tools: readonly unknown[], options: SanitizeOptions): Sanitized {
  const out: unknown[] = []
  const report: ToolVerdict[] = []
  tools.forEach((tool, index) => {
    const { verdict, projected } = sanitizeTool(tool, index, options)
    report.push(verdict)
    if (projected !== undefined) out.push(projected)
  })
  return { tools: out, report }
}

function sanitizeTool(
  tool: unknown,
  index: number,
  options: SanitizeOptions,
): { verdict: ToolVerdict; projected?: unknown } {
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) {
    return rejected(`tools[${index}]`, [], [toolShape('an MCP tool is an object { name, inputSchema, ... }')])
  }
  const record = tool as ToolRecord
  if (typeof record.name !== 'string' || record.name === '') {
    return rejected(
      `tools[${index}]`,
      [],
      [toolShape('the tool has no `name` string; MCP clients cannot call it')],
    )
  }
  const name = record.name
  const input = projectSchema('inputSchema', record.inputSchema, options)
  const output = Object.hasOwn(record, 'outputSchema')
    ? projectSchema('outputSchema', record.outputSchema, options)
    : undefined
  const changes = [...input.changes, ...(output?.changes ?? [])]
  const violations = [...input.violations, ...(output?.violations ?? [])]
  if (violations.length > 0) return rejected(name, changes, violations)
  const same =
    input.wire === record.inputSchema && (output === undefined || output.wire === record.outputSchema)
  if (same && changes.length === 0)
    return { verdict: { name, status: 'unchanged', changes, violations }, projected: tool }
  // Spread keeps the key order, so only the schemas differ from what the server sent.
  const projected: ToolRecord = { ...record, inputSchema: input.wire }
  if (output !== undefined) projected.outputSchema = output.wire
  return { verdict: { name, status: 'changed', changes, violations }, projected }
}

interface SchemaOutcome {
  readonly wire: unknown
  readonly changes: readonly ReportChange[]
  readonly violations: readonly ReportViolation[]
}

function projectSchema(schema: SchemaKey, declared: unknown, options: SanitizeOptions): SchemaOutcome {
  const changes: ReportChange[] = []
  const checked = checkToolParameters(declared)
  let root = declared as JsonObject
  if (checked.violations.length > 0) {
    const repaired =
      options.repair && checked.snapshot !== undefined
        ? repairParameters(checked.snapshot, checked.violations)
        : undefined
    if (repaired === undefined || checkToolParameters(repaired).violations.length > 0)
      return { wire: declared, changes, violations: checked.violations.map((v) => located(schema, v)) }
    root = repaired
    for (const violation of checked.violations) {
      changes.push({
        schema,
        pointer: violation.pointer,
        action: 'repaired',
        detail: `${violation.rule} (one meaning, repaired): ${violation.message}`,
      })
    }
  }
  let wire: JsonObject
  try {
    const projection = projectParameters(root, options.profile)
    wire = projection.wire
    for (const change of projection.changes) changes.push({ schema, ...change })
  } catch (error) {
    return { wire: declared, changes, violations: refusal(schema, error) }
  }
  // The projection's postcondition, checked here too: never pass on a schema the route would refuse.
  const refused = checkProfileContract(wire, options.profile)
  if (refused.length > 0) return { wire, changes, violations: refused.map((v) => located(schema, v)) }
  return { wire, changes, violations: [] }
}

/** A projection that refuses says why, as `JsonSchemaError.details`; anything else is reported by its message. */
function refusal(schema: SchemaKey, error: unknown): ReportViolation[] {
  const details = (error as { details?: unknown } | null)?.details
  if (Array.isArray(details) && details.length > 0)
    return (details as SchemaViolation[]).map((v) => located(schema, v))
  return [
    {
      schema,
      pointer: '',
      rule: 'projection-failed',
      message: `the projection threw: ${error instanceof Error ? error.message : String(error)}`,
      hint: 'simplify this schema, or report it to dsh-harden with the schema attached',
    },
  ]
}

function located(schema: SchemaKey, violation: SchemaViolation): ReportViolation {
  const { pointer, rule, message, hint } = violation
  return { schema, pointer, rule, message, hint }
}

function toolShape(message: string): ReportViolation {
  return {
    schema: 'tool',
    pointer: '',
    rule: 'tool-shape',
    message,
    hint: 'list tools as { name, inputSchema, ... }',
  }
}

function rejected(
  name: string,
  changes: readonly ReportChange[],
  violations: readonly ReportViolation[],
): { verdict: ToolVerdict } {
  return { verdict: { name, status: 'rejected', changes, violations } }
}
