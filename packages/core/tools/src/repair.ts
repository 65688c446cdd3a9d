import { parsePointer } from './json-pointer.ts'
import { defineOwn, isJsonObject, type JsonObject, type JsonValue, ownValue } from './json-value.ts'
import { subschemasOf } from './subschemas.ts'
import type { SchemaRule, SchemaViolation } from './violation.ts'

/**
 * Repairs for the mistakes that have exactly one meaning. Anything else is left for the caller to throw: a repair
 * that guesses would change what the tool accepts without its author knowing.
 */
const REPAIRABLE: ReadonlySet<SchemaRule> = new Set([
  'bare-property-table',
  'root-empty',
  'root-type-missing',
  'required-in-property',
  'root-ref',
])

export function isRepairable(violations: readonly SchemaViolation[]): boolean {
  return violations.every((v) => REPAIRABLE.has(v.rule))
}

function objectRoot(properties: JsonValue, rest: JsonObject = {}): JsonObject {
  const root: JsonObject = { type: 'object' }
  for (const [key, value] of Object.entries(rest)) defineOwn(root, key, value)
  defineOwn(root, 'properties', properties)
  return root
}

/** Moves `required: true` from property schemas into their object's `required` array, at every depth. */
function hoistPropertyRequired(schema: JsonValue): void {
  const pending: JsonValue[] = [schema]
  while (pending.length > 0) {
    const node = pending.pop()!
    if (!isJsonObject(node)) continue
    const properties = ownValue(node, 'properties')
    if (isJsonObject(properties)) {
      const hoisted = Object.entries(properties).flatMap(([name, property]) => {
        if (!isJsonObject(property) || typeof ownValue(property, 'required') !== 'boolean') return []
        const wanted = property.required === true
        delete property.required
        return wanted ? [name] : []
      })
      const existing = ownValue(node, 'required')
      const names = Array.isArray(existing) ? existing : []
      const merged = [...names, ...hoisted.filter((name) => !names.includes(name))]
      if (merged.length > 0) defineOwn(node, 'required', merged)
    }
    for (const sub of subschemasOf(node)) pending.push(sub.schema)
  }
}

/**
 * A root that is only a `$ref` to a local object schema, with the target inlined; its `$defs`/`definitions` stay so
 * references inside the target still resolve. `undefined` when the target is not a local object schema.
 */
function inlineRootRef(root: JsonObject): JsonObject | undefined {
  const ref = ownValue(root, '$ref')
  const segments = typeof ref === 'string' ? parsePointer(ref) : undefined
  if (segments === undefined || segments.length === 0) return undefined
  let target: JsonValue | undefined = root
  for (const segment of segments) target = isJsonObject(target) ? ownValue(target, segment) : undefined
  if (!isJsonObject(target) || ownValue(target, 'type') !== 'object') return undefined
  const { $ref: _ref, ...rest } = root
  const inlined: JsonObject = {}
  for (const [key, value] of [...Object.entries(rest), ...Object.entries(target)])
    defineOwn(inlined, key, value)
  return inlined
}

/** The repaired schema, built from a snapshot the caller owns; `undefined` when a violation is not repairable. */
export function repairParameters(
  snapshot: JsonValue,
  violations: readonly SchemaViolation[],
): JsonObject | undefined {
  if (!isJsonObject(snapshot) || !isRepairable(violations)) return undefined
  const rules = new Set(violations.map((v) => v.rule))
  let root = snapshot
  if (rules.has('root-ref')) {
    const inlined = inlineRootRef(snapshot)
    if (inlined === undefined) return undefined
    root = inlined
  } else if (rules.has('bare-property-table')) root = objectRoot(snapshot)
  else if (rules.has('root-empty')) root = objectRoot({})
  else if (rules.has('root-type-missing')) {
    const { properties, ...rest } = snapshot
    root = objectRoot(properties ?? {}, rest)
  }
  if (rules.has('required-in-property')) hoistPropertyRequired(root)
  return root
}
