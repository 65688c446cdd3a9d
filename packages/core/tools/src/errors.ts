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

/**
 * Shape-compatible with DSH's `JsonSchemaError` (`packages/core/tools/src/json-schema.ts`): same `name`, `code` and
 * `violations: string[]`, so code that reads those keeps working. Adds the tool, its source and structured details.
 */
export class JsonSchemaError extends Error {
  override readonly name = 'JsonSchemaError'
  readonly code = 'UNSUPPORTED_SCHEMA'
  readonly violations: readonly string[]
  readonly details: readonly SchemaViolation[]
  readonly tool: string
  readonly source: string | undefined

  constructor(identity: ToolIdentity, details: readonly SchemaViolation[]) {
    const violations = details.map(formatViolation)
    const count = details.length === 1 ? 'a violation' : `${details.length} violations`
    super(`${describeTool(identity)}: parameters have ${count}: ${violations.join('; ')}`)
    this.violations = violations
    this.details = details
    this.tool = identity.tool
    this.source = identity.source
  }
}
