import { toPointer } from '../json-pointer.ts'
import type { SchemaViolation } from '../violation.ts'
import { isPlainRecord, ownField } from './mcp-shape.ts'
import { repairUnionRoot } from './union-root.ts'

/**
 * Mistakes with exactly one meaning that real MCP servers make and the root contract's own repairs
 * (`repair.ts`) do not cover. Only the MCP boundary applies them: a plugin author gets the error instead.
 */

// Keys that describe a schema without constraining it: a root made only of these means "no constraint", like `{}`.
const METADATA_ONLY = new Set(['$schema', '$id', '$comment', 'title', 'description', '$defs', 'definitions'])

export const EMPTY_OBJECT_HINT = "for a tool with no arguments list { type: 'object', properties: {} }"

export interface McpRepair {
  /** The schema with the repairs applied: the very same object when none applied. */
  readonly schema: unknown
  readonly repaired: readonly SchemaViolation[]
  /** A mistake with no single meaning found on the way: the tool is isolated with it. */
  readonly refused?: SchemaViolation | undefined
}

/**
 * `which` decides one repair: only arguments go to a model route, so only an `inputSchema` object root without
 * `properties` gets `properties: {}` (and only under `fillProperties`); an output schema without properties already
 * means "any object".
 */
export function repairMcpSchema(
  schema: unknown,
  which: 'inputSchema' | 'outputSchema',
  fillProperties: boolean,
) {
  if (!isPlainRecord(schema)) return { schema, repaired: [] } satisfies McpRepair
  const repaired: SchemaViolation[] = []
  const union = repairUnionRoot(schema)
  if (union.kind === 'refused') return { schema, repaired, refused: union.violation } satisfies McpRepair
  if (union.kind === 'repaired') repaired.push(union.repaired)
  const start = union.kind === 'repaired' ? union.schema : schema
  let next = start
  // Copy on first write, so an untouched schema stays the very same object.
  const edit = (): Record<string, unknown> => {
    if (next === schema) next = { ...schema }
    return next
  }
  const keys = Object.keys(start)
  // zod-to-json-schema for zod 4 objects emits only `{ "$schema": ... }` (server-filesystem 2025.8.21 does).
  if (keys.length > 0 && keys.every((key) => METADATA_ONLY.has(key))) {
    const root = edit()
    root.type = 'object'
    root.properties = {}
    repaired.push({
      pointer: '',
      rule: 'root-empty',
      message: `the schema has only ${keys.map((k) => `\`${k}\``).join(', ')}: no \`type: "object"\` and no properties`,
      hint: EMPTY_OBJECT_HINT,
    })
  }
  if (Object.hasOwn(next, 'required') && next.required === null) {
    delete edit().required
    repaired.push({
      pointer: '/required',
      rule: 'required-not-array',
      message: '`required: null` is not an array; it can only mean "nothing is required"',
      hint: 'leave `required` out, or list the required property names',
    })
  }
  const properties = ownField(next, 'properties')
  if (isPlainRecord(properties)) {
    const table = booleanPropertiesAsObjects(properties, repaired)
    if (table !== properties) edit().properties = table
  }
  const declared = declareRequired(next, repaired)
  if (declared !== undefined) edit().properties = declared
  if (
    which === 'inputSchema' &&
    fillProperties &&
    ownField(next, 'type') === 'object' &&
    !Object.hasOwn(next, 'properties')
  ) {
    edit().properties = {}
    repaired.push({
      pointer: '/properties',
      rule: 'properties-not-map',
      message: 'an object root without `properties`; OpenAI-compatible routes reject it',
      hint: "add properties: {} (or declare the tool's arguments)",
    })
  }
  return { schema: next, repaired } satisfies McpRepair
}

/**
 * `required` naming a key `properties` does not declare: in JSON Schema (2020-12 §10.3.2.3, draft-07 §6.5.3) the key
 * must be present, with any value `additionalProperties` admits for it; declaring it with that schema (`{}` when
 * absent) says exactly the same, and Gemini refuses the undeclared name ("required[0]: property is not defined").
 * Under `additionalProperties: false` no call can be valid, and `patternProperties` may govern the key: those are left
 * for the root contract to refuse.
 */
function declareRequired(
  root: Record<string, unknown>,
  repaired: SchemaViolation[],
): Record<string, unknown> | undefined {
  const required = ownField(root, 'required')
  if (!Array.isArray(required) || ownField(root, 'type') !== 'object') return undefined
  const properties = ownField(root, 'properties') ?? {}
  const additional = ownField(root, 'additionalProperties') ?? {}
  if (!isPlainRecord(properties) || ownField(root, 'patternProperties') !== undefined) return undefined
  if (additional === false || (additional !== true && !isPlainRecord(additional))) return undefined
  let table = properties
  for (const [index, name] of required.entries()) {
    if (typeof name !== 'string' || Object.hasOwn(table, name)) continue
    if (table === properties) table = { ...properties }
    Object.defineProperty(table, name, {
      value: additional === true ? {} : additional,
      enumerable: true,
      writable: true,
      configurable: true,
    })
    repaired.push({
      pointer: `/required/${index}`,
      rule: 'required-undeclared',
      message: `requires ${JSON.stringify(name)}, which \`properties\` does not declare: the key must be present with any value${additional === true || Object.keys(additional).length === 0 ? '' : ' additionalProperties admits'}, so it is declared that way`,
      hint: `declare ${JSON.stringify(name)} under \`properties\` with its schema`,
    })
  }
  return table === properties ? undefined : table
}

// `true` is `{}` and `false` is `{ not: {} }`: valid JSON Schema, but the MCP SDK demands object property schemas.
function booleanPropertiesAsObjects(
  properties: Record<string, unknown>,
  repaired: SchemaViolation[],
): Record<string, unknown> {
  let table = properties
  for (const [name, value] of Object.entries(properties)) {
    if (typeof value !== 'boolean') continue
    if (table === properties) table = { ...properties }
    Object.defineProperty(table, name, {
      value: value ? {} : { not: {} },
      enumerable: true,
      writable: true,
      configurable: true,
    })
    repaired.push({
      pointer: toPointer(['properties', name]),
      rule: 'property-not-schema',
      message: `the boolean schema \`${value}\` is valid JSON Schema, but the MCP SDK requires an object`,
      hint: value ? 'write {} (accepts any value)' : 'write { "not": {} } (accepts nothing)',
    })
  }
  return table
}

/** A tool that lists no `inputSchema` constrains nothing, like `{}`. */
export function missingInputSchema(): McpRepair {
  return {
    schema: { type: 'object', properties: {} },
    repaired: [
      {
        pointer: '',
        rule: 'parameters-missing',
        message: 'the tool lists no `inputSchema`; like `{}`, that constrains nothing',
        hint: EMPTY_OBJECT_HINT,
      },
    ],
  }
}
