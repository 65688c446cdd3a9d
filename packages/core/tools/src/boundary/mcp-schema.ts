import { compileValidator } from '../contract/validator.ts'
import type { JsonObject } from '../json-value.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../limits.ts'
import { isRepairable, repairParameters } from '../repair.ts'
import { checkToolParameters } from '../root-contract.ts'
import type { SchemaViolation } from '../violation.ts'
import { missingInputSchema, repairMcpSchema } from './mcp-repairs.ts'
import { meetsMcpSchemaShape } from './mcp-shape.ts'

/**
 * The tolerant boundary for schemas an MCP server lists. `contract` (DSH, the gateway, `sanitize`, `types`,
 * `mcp check`): a served schema meets the root contract, so every model route can take it. `spec` (the repair proxy,
 * which serves any strict MCP client): only what the MCP `Tool` shape rejects is repaired or refused.
 */
export type McpPolicy = 'contract' | 'spec'

export interface McpSchemaOptions {
  readonly policy: McpPolicy
  readonly limits?: SizeLimits | undefined
}

/** `ok` is the very same value, so a compliant schema is served unchanged. */
export type SchemaVerdict =
  | { readonly kind: 'ok'; readonly schema: unknown }
  | { readonly kind: 'repaired'; readonly schema: JsonObject; readonly repaired: readonly SchemaViolation[] }
  | { readonly kind: 'rejected'; readonly violations: readonly SchemaViolation[] }

/**
 * The verdict on one listed `inputSchema` or `outputSchema`: repair what has exactly one meaning (the root contract's
 * repairs and the MCP ones), refuse anything else, never guess.
 */
export function judgeMcpSchema(
  schema: unknown,
  which: 'inputSchema' | 'outputSchema',
  options: McpSchemaOptions,
): SchemaVerdict {
  if (schema === undefined) {
    if (which === 'outputSchema') return { kind: 'ok', schema }
    const missing = missingInputSchema()
    return { kind: 'repaired', schema: missing.schema as JsonObject, repaired: missing.repaired }
  }
  const limits = options.limits ?? DEFAULT_LIMITS
  if (options.policy === 'spec' && meetsMcpSchemaShape(schema)) return { kind: 'ok', schema }
  const pre = repairMcpSchema(schema, which, options.policy === 'contract')
  if (pre.refused !== undefined) return { kind: 'rejected', violations: [pre.refused] }
  const check = checkToolParameters(pre.schema, limits)
  // Under `spec` only what the MCP shape cannot take blocks; the rest of the root contract is not the proxy's to fix.
  const blocking =
    options.policy === 'spec' ? check.violations.filter((v) => isRepairable([v])) : check.violations
  if (blocking.length === 0) {
    // Under `spec` nothing the root contract says is fixed here, so what still misses the MCP shape is refused.
    if (options.policy === 'spec' && !meetsMcpSchemaShape(pre.schema))
      return {
        kind: 'rejected',
        violations: check.violations.length > 0 ? check.violations : [notMcpShape()],
      }
    if (pre.repaired.length === 0) return { kind: 'ok', schema }
    return { kind: 'repaired', schema: pre.schema as JsonObject, repaired: pre.repaired }
  }
  const repaired = check.snapshot === undefined ? undefined : repairParameters(check.snapshot, blocking)
  if (repaired === undefined) return { kind: 'rejected', violations: [...pre.repaired, ...check.violations] }
  if (options.policy === 'contract') {
    const recheck = checkToolParameters(repaired, limits)
    if (recheck.violations.length > 0) return { kind: 'rejected', violations: recheck.violations }
  }
  if (!meetsMcpSchemaShape(repaired)) return { kind: 'rejected', violations: check.violations }
  return { kind: 'repaired', schema: repaired, repaired: [...pre.repaired, ...blocking] }
}

/** The output-schema policy: a bad output schema is dropped (the tool stays, its output is not validated). */
export type OutputVerdict =
  | SchemaVerdict
  | { readonly kind: 'dropped'; readonly violations: readonly SchemaViolation[] }

/**
 * An output schema only validates `structuredContent`; it never reaches a model route. So one that cannot be used
 * costs the tool its output check, never the tool: strict clients (the SDK's `listTools`) compile every output schema
 * and fail the whole page if one does not compile, which is why one that ajv cannot compile is dropped as well.
 */
export function judgeMcpOutputSchema(schema: unknown, options: McpSchemaOptions): OutputVerdict {
  if (schema === undefined) return { kind: 'ok', schema }
  const verdict = judgeMcpSchema(schema, 'outputSchema', options)
  if (verdict.kind === 'rejected') return { kind: 'dropped', violations: verdict.violations }
  if (!meetsMcpSchemaShape(verdict.schema)) return { kind: 'dropped', violations: [notMcpShape()] }
  const problem = compileProblem(verdict.schema as JsonObject)
  if (problem === undefined) return verdict
  return {
    kind: 'dropped',
    violations: [
      {
        pointer: '',
        rule: 'unreadable',
        message: `the output schema does not compile: ${problem}`,
        hint: 'list an output schema ajv can compile, or none',
      },
    ],
  }
}

function compileProblem(schema: JsonObject): string | undefined {
  try {
    compileValidator(schema)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function notMcpShape(): SchemaViolation {
  return {
    pointer: '',
    rule: 'keyword-type',
    message:
      'not a schema the MCP Tool type accepts: it needs `type: "object"`, object property schemas and string `required` names',
    hint: 'list an object-rooted schema',
  }
}
