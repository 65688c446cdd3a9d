import type { SchemaViolation } from '../check/violation.ts'
import { toPointer } from '../json/json-pointer.ts'
import { defineOwn, isJsonObject, type JsonObject, ownValue } from '../json/json-value.ts'

/**
 * The MCP boundary's own tolerance, beyond the one-meaning repairs every entry point shares
 * (`one-meaning-repairs.ts`): only where an MCP `tools/list` differs from a plugin's `parameters`. A strict MCP
 * client needs object property schemas where JSON Schema (and so a plugin's `parameters`) also takes booleans, and a
 * tool may list no `inputSchema` at all, which a plugin cannot leave out.
 */

/**
 * Applies the MCP-only repairs to `schema` (a detached copy the caller owns, changed in place) and names each.
 * `fillProperties` (the `contract` policy, `inputSchema` only) gives an object root without `properties` an empty
 * map: the MCP intake serves every route from one listing, and OpenAI-compatible routes reject such a root, while a
 * plugin's schema keeps it as declared (the root contract takes it) and its route projection decides.
 */
export function repairMcpSpecifics(schema: JsonObject, fillProperties: boolean): SchemaViolation[] {
  const repaired: SchemaViolation[] = []
  const properties = ownValue(schema, 'properties')
  if (isJsonObject(properties)) booleanPropertiesAsObjects(properties, repaired)
  if (fillProperties && ownValue(schema, 'type') === 'object' && !Object.hasOwn(schema, 'properties')) {
    defineOwn(schema, 'properties', {})
    repaired.push({
      pointer: '/properties',
      rule: 'properties-not-map',
      message: 'an object root without `properties`; OpenAI-compatible routes reject it',
      hint: "add properties: {} (or declare the tool's arguments)",
    })
  }
  return repaired
}

// `true` is `{}` and `false` is `{ not: {} }`: valid JSON Schema, but the MCP SDK demands object property schemas.
function booleanPropertiesAsObjects(properties: JsonObject, repaired: SchemaViolation[]): void {
  for (const [name, value] of Object.entries(properties)) {
    if (typeof value !== 'boolean') continue
    defineOwn(properties, name, value ? {} : { not: {} })
    repaired.push({
      pointer: toPointer(['properties', name]),
      rule: 'property-not-schema',
      message: `the boolean schema \`${value}\` is valid JSON Schema, but the MCP SDK requires an object`,
      hint: value ? 'write {} (accepts any value)' : 'write { "not": {} } (accepts nothing)',
    })
  }
}

/** A tool that lists no `inputSchema` constrains nothing, like `{}`; a plugin's missing `parameters` are refused. */
export function missingInputSchema(): { readonly schema: JsonObject; readonly repaired: SchemaViolation[] } {
  return {
    schema: { type: 'object', properties: {} },
    repaired: [
      {
        pointer: '',
        rule: 'parameters-missing',
        message: 'the tool lists no `inputSchema`; like `{}`, that constrains nothing',
        hint: "for a tool with no arguments list { type: 'object', properties: {} }",
      },
    ],
  }
}
