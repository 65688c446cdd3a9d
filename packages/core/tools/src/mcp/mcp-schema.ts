import { checkToolParameters } from '../check/root-contract.ts'
import type { SchemaViolation } from '../check/violation.ts'
import { isJsonObject, type JsonObject } from '../json/json-value.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../json/limits.ts'
import { planOneMeaningRepairs } from '../repair/one-meaning-repairs.ts'
import { repairParameters } from '../repair/repair.ts'
import { compileValidator } from '../validate/validator.ts'
import { missingInputSchema, repairMcpSpecifics } from './mcp-repairs.ts'
import { meetsMcpSchemaShape } from './mcp-shape.ts'

/**
 * The tolerant boundary for schemas an MCP server lists. `contract` (DSH, the gateway, `sanitize`, `types`,
 * `mcp check`): a served schema meets the root contract, so every model route can take it. `spec` (the repair proxy,
 * which serves any strict MCP client): a schema the MCP `Tool` shape takes is served as listed; one it rejects gets
 * the one-meaning repairs (each keeps what the schema accepts) and is refused if it still misses the shape.
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
 * The verdict on one listed `inputSchema` or `outputSchema`: repair what has exactly one meaning (the repairs every
 * entry point shares, then the MCP-only ones), refuse anything else, never guess.
 */
export function judgeMcpSchema(
  schema: unknown,
  which: 'inputSchema' | 'outputSchema',
  options: McpSchemaOptions,
): SchemaVerdict {
  if (schema === undefined) {
    if (which === 'outputSchema') return { kind: 'ok', schema }
    return { kind: 'repaired', ...missingInputSchema() }
  }
  if (options.policy === 'spec' && meetsMcpSchemaShape(schema)) return { kind: 'ok', schema }
  const check = checkToolParameters(schema, options.limits ?? DEFAULT_LIMITS)
  if (check.snapshot === undefined || !isJsonObject(check.snapshot))
    return { kind: 'rejected', violations: check.violations }
  const shared = sharedRepairs(check.snapshot, check.violations, options)
  if (shared.kind === 'rejected') return shared
  const own = repairMcpSpecifics(shared.schema, which === 'inputSchema' && options.policy === 'contract')
  // Under `spec` the rest of the root contract is not the proxy's to fix; what still misses the MCP shape is refused.
  if (options.policy === 'spec' && !meetsMcpSchemaShape(shared.schema))
    return { kind: 'rejected', violations: check.violations.length > 0 ? check.violations : [notMcpShape()] }
  const repaired = [...shared.repaired, ...own]
  if (repaired.length === 0) return { kind: 'ok', schema }
  return { kind: 'repaired', schema: shared.schema, repaired }
}

/**
 * The one-meaning repairs of the root contract's violations, on the detached copy. `contract`: every violation must
 * have one and the result meet the root contract. `spec`: the violations that have one are repaired, the rest left.
 */
function sharedRepairs(
  snapshot: JsonObject,
  violations: readonly SchemaViolation[],
  options: McpSchemaOptions,
):
  | { readonly kind: 'fixed'; readonly schema: JsonObject; readonly repaired: readonly SchemaViolation[] }
  | { readonly kind: 'rejected'; readonly violations: readonly SchemaViolation[] } {
  if (violations.length === 0) return { kind: 'fixed', schema: snapshot, repaired: [] }
  if (options.policy === 'contract') {
    const attempt = repairParameters(snapshot, violations, options.limits ?? DEFAULT_LIMITS)
    if (attempt.kind === 'refused') return { kind: 'rejected', violations: attempt.violations }
    return { kind: 'fixed', schema: attempt.schema, repaired: attempt.fixes.map((fix) => fix.report) }
  }
  const plan = planOneMeaningRepairs(snapshot, violations)
  const applied = plan.apply()
  if ('refused' in applied) return { kind: 'rejected', violations: [applied.refused] }
  const repaired = plan.fixes.flatMap((fix) => (fix === undefined ? [] : [fix.report]))
  return { kind: 'fixed', schema: applied.schema, repaired }
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
