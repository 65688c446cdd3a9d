import { formatViolation, type SchemaViolation } from './violation.ts'

/** Who a schema belongs to, so an error can name it. `source` is the plugin or MCP server that registered it. */
export interface ToolIdentity {
  readonly tool: string
  readonly source?: string | undefined
}

export function describeTool(identity: ToolIdentity): string {
  const from = identity.source === undefined ? '' : ` from ${JSON.stringify(identity.source)}`
  return `tool ${JSON.stringify(identity.tool)}${from}`
}

/** What both errors carry besides DSH's `name` and `code`: the violations as text and structured, the tool, its source. */
export abstract class ToolSchemaError<Detail> extends Error {
  readonly violations: readonly string[]
  readonly details: readonly Detail[]
  readonly tool: string
  readonly source: string | undefined

  protected constructor(
    message: string,
    identity: ToolIdentity,
    details: readonly Detail[],
    violations: readonly string[],
  ) {
    super(message)
    this.violations = violations
    this.details = details
    this.tool = identity.tool
    this.source = identity.source
  }
}

/**
 * Shape-compatible with DSH's `JsonSchemaError` (`packages/core/tools/src/json-schema.ts`): same `name`, `code` and
 * `violations: string[]`, so code that reads those keeps working. Adds the tool, its source and structured details.
 */
export class JsonSchemaError extends ToolSchemaError<SchemaViolation> {
  override readonly name = 'JsonSchemaError'
  readonly code = 'UNSUPPORTED_SCHEMA'

  constructor(identity: ToolIdentity, details: readonly SchemaViolation[]) {
    const violations = details.map(formatViolation)
    const count = details.length === 1 ? 'a violation' : `${details.length} violations`
    super(
      `${describeTool(identity)}: parameters have ${count}: ${violations.join('; ')}`,
      identity,
      details,
      violations,
    )
  }
}
