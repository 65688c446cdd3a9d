import {
  checkToolParameters,
  DEFAULT_LIMITS,
  isRepairable,
  type JsonObject,
  repairParameters,
  type SchemaViolation,
  type SizeLimits,
} from '@dsh-harden/tools'
import type { IntakePolicy } from './types.ts'

/**
 * One listed schema (`inputSchema` or `outputSchema`) through intake. The MCP SDK's `ToolSchema` demands an object
 * root (`type: "object"`), `properties` a map of objects and `required` an array of strings; DSH's root contract
 * demands more. What has exactly one meaning is repaired; anything else is refused, never guessed.
 */
export type SchemaVerdict =
  | { readonly kind: 'ok'; readonly schema: unknown }
  | { readonly kind: 'repaired'; readonly schema: JsonObject; readonly repaired: readonly SchemaViolation[] }
  | { readonly kind: 'rejected'; readonly violations: readonly SchemaViolation[] }

export interface SchemaIntakeOptions {
  readonly policy: IntakePolicy
  readonly limits?: SizeLimits | undefined
}

// Keys that describe a schema without constraining it: a root made only of these means "no constraint", like `{}`.
const METADATA_ONLY = new Set(['$schema', '$id', '$comment', 'title', 'description', '$defs', 'definitions'])

const EMPTY_OBJECT_HINT = "for a tool with no arguments list { type: 'object', properties: {} }"

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** What the SDK's zod `ToolSchema` accepts for `inputSchema` / `outputSchema`: the only gate a strict client has. */
export function sdkAcceptsSchema(schema: unknown): boolean {
  if (!isPlainObject(schema) || own(schema, 'type') !== 'object') return false
  const properties = own(schema, 'properties')
  if (properties !== undefined) {
    if (!isPlainObject(properties)) return false
    for (const key in properties) {
      const value = properties[key]
      if (typeof value !== 'object' || value === null) return false
    }
  }
  const required = own(schema, 'required')
  return required === undefined || (Array.isArray(required) && required.every((n) => typeof n === 'string'))
}

interface PreRepair {
  readonly schema: Record<string, unknown>
  readonly repaired: SchemaViolation[]
}

/**
 * MCP-specific mistakes with one meaning that DSH's root contract does not repair on its own: a root of metadata only
 * (`{"$schema": …}`, what zod-to-json-schema emits for zod 4 objects), `required: null`, an object root without
 * `properties`, and boolean property schemas (`true` is `{}`, `false` is `{ not: {} }`, which the SDK demands).
 */
function preRepair(schema: Record<string, unknown>, policy: IntakePolicy, input: boolean): PreRepair {
  const repaired: SchemaViolation[] = []
  let next = schema
  const edit = (): Record<string, unknown> => {
    if (next === schema) next = { ...schema }
    return next
  }
  const keys = Object.keys(schema)
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
  if (Object.hasOwn(schema, 'required') && schema.required === null) {
    delete edit().required
    repaired.push({
      pointer: '/required',
      rule: 'required-not-array',
      message: '`required: null` is not an array; it can only mean "nothing is required"',
      hint: 'leave `required` out, or list the required property names',
    })
  }
  const properties = own(next, 'properties')
  if (isPlainObject(properties)) {
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
        pointer: `/properties/${escapePointer(name)}`,
        rule: 'property-not-schema',
        message: `the boolean schema \`${value}\` is valid JSON Schema, but the MCP SDK requires an object`,
        hint: value ? 'write {} (accepts any value)' : 'write { "not": {} } (accepts nothing)',
      })
    }
    if (table !== properties) edit().properties = table
  }
  // Only arguments go to a model route; an output schema without properties already means "any object".
  if (
    input &&
    policy === 'contract' &&
    own(next, 'type') === 'object' &&
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
  return { schema: next, repaired }
}

function missingInput(): SchemaVerdict {
  return {
    kind: 'repaired',
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

/**
 * The verdict on one listed schema. `ok` returns the very same value, so a compliant tool is forwarded unchanged.
 * Under `contract` the repaired schema meets DSH's root contract; under `spec` it is what the MCP SDK accepts.
 */
export function intakeSchema(
  schema: unknown,
  which: 'inputSchema' | 'outputSchema',
  options: SchemaIntakeOptions,
): SchemaVerdict {
  if (schema === undefined) return which === 'outputSchema' ? { kind: 'ok', schema } : missingInput()
  const limits = options.limits ?? DEFAULT_LIMITS
  if (options.policy === 'spec' && sdkAcceptsSchema(schema)) return { kind: 'ok', schema }
  const pre = isPlainObject(schema)
    ? preRepair(schema, options.policy, which === 'inputSchema')
    : { schema, repaired: [] }
  const check = checkToolParameters(pre.schema, limits)
  const blocking =
    options.policy === 'spec' ? check.violations.filter((v) => isRepairable([v])) : check.violations
  if (blocking.length === 0) {
    if (pre.repaired.length === 0) return { kind: 'ok', schema }
    if (options.policy === 'spec' && !sdkAcceptsSchema(pre.schema))
      return { kind: 'rejected', violations: check.violations }
    return { kind: 'repaired', schema: pre.schema as JsonObject, repaired: pre.repaired }
  }
  const repaired = check.snapshot === undefined ? undefined : repairParameters(check.snapshot, blocking)
  if (repaired === undefined) return { kind: 'rejected', violations: [...pre.repaired, ...check.violations] }
  if (options.policy === 'contract') {
    const recheck = checkToolParameters(repaired, limits)
    if (recheck.violations.length > 0) return { kind: 'rejected', violations: recheck.violations }
  }
  if (!sdkAcceptsSchema(repaired)) return { kind: 'rejected', violations: check.violations }
  return { kind: 'repaired', schema: repaired, repaired: [...pre.repaired, ...blocking] }
}
