import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { meetsName } from './names.ts'
import type { ProfileRules } from './profiles.ts'
import { listableValue } from './project.ts'
import { exceedsRepetition, lengthBesideGrammar } from './repetition.ts'

/**
 * Whether `projectParameters` would send `declared` exactly as it is on a route: a conservative test, one read of
 * each node, that lets most real schemas skip building a projection only to find it equal to the declared schema
 * (about 20 µs per tool at DSH start, before the first request). It answers true only inside a small vocabulary
 * whose projection is known to change nothing: singly typed nodes with descriptions, bounds the route keeps, string
 * `enum`s, declared `required` names, boolean `additionalProperties` and arrays of one `items` schema. Anything else
 * (unions, `$ref`, `pattern`, type lists, strict or nullable-optional routes, renamed keys) answers false and is
 * projected in full. `as-declared.property.test.ts` checks that a true answer implies an unchanged full projection.
 */
export function acceptedAsDeclared(
  declared: JsonObject,
  rules: ProfileRules,
  limits: { readonly maxDepth: number; readonly nodeBudget: number },
  meter?: WorkMeter,
): boolean {
  if (rules.strictObjects || rules.nullableOptionals) return false
  const pending: { readonly node: JsonValue; readonly depth: number }[] = [{ node: declared, depth: 1 }]
  let nodes = 0
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!
    meter?.count('projection-node')
    if (++nodes > limits.nodeBudget || depth >= limits.maxDepth) return false
    if (!isJsonObject(node)) return false
    const children = acceptedNode(node, rules)
    if (children === undefined) return false
    for (const child of children) pending.push({ node: child, depth: depth + 1 })
  }
  return true
}

const SCALAR_BOUNDS: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  array: ['minItems', 'maxItems', 'uniqueItems'],
  object: [],
}

const NO_CHILDREN: readonly JsonValue[] = []

/** The subschemas of an accepted node, or `undefined` when the node is outside the vocabulary this test knows. */
function acceptedNode(node: JsonObject, rules: ProfileRules): readonly JsonValue[] | undefined {
  const type = node.type
  if (typeof type !== 'string') return undefined
  const bounds = SCALAR_BOUNDS[type]
  if (bounds === undefined) return undefined
  let children: JsonValue[] | undefined
  for (const key of Object.keys(node)) {
    const value = node[key]!
    switch (key) {
      case 'type':
        continue
      case 'description':
        if (typeof value !== 'string') return undefined
        continue
      case 'title':
        if (typeof value !== 'string' || !rules.keeps.has(key)) return undefined
        continue
      case 'default':
        // A container default may hold a `$ref` key, which the projection spills.
        if ((typeof value === 'object' && value !== null) || !rules.keeps.has(key)) return undefined
        continue
      case 'enum':
        if (!acceptedEnum(type, value, rules)) return undefined
        continue
      case 'format':
        if (type !== 'string' || typeof value !== 'string' || !rules.keeps.has(key)) return undefined
        if (rules.formats !== undefined && !rules.formats.has(value)) return undefined
        if (value === 'enum' && rules.enumFormatNeedsEnum && !Array.isArray(node.enum)) return undefined
        continue
      case 'items':
        if (type !== 'array' || !isJsonObject(value)) return undefined
        children = [value]
        continue
      case 'properties':
      case 'required':
      case 'additionalProperties':
        if (type !== 'object') return undefined
        continue
      default:
        if (!bounds.includes(key) || !rules.keeps.has(key) || exceedsRepetition(rules, key, value))
          return undefined
    }
  }
  if (type === 'array' && children === undefined && (rules.typedEverywhere || rules.arraysNeedItems))
    return undefined
  if (lengthBesideGrammar(rules, node)) return undefined
  if (type === 'object') return objectChildren(node, rules)
  return children ?? NO_CHILDREN
}

function acceptedEnum(type: string, values: JsonValue, rules: ProfileRules): boolean {
  if (!Array.isArray(values) || values.length === 0) return false
  if (type === 'string') return values.every((value) => listableValue(value, rules))
  if (rules.enumStringsOnly || (type !== 'number' && type !== 'integer')) return false
  return values.every((value) => typeof value === 'number')
}

/** The property schemas of an object node whose keys, `required` and `additionalProperties` go as declared. */
function objectChildren(node: JsonObject, rules: ProfileRules): readonly JsonValue[] | undefined {
  const { properties, required, additionalProperties } = node
  if (properties !== undefined && !isJsonObject(properties)) return undefined
  // The projection adds `properties: {}` where the route wants the map.
  if (properties === undefined && rules.objectsNeedProperties) return undefined
  const names = properties === undefined ? [] : Object.keys(properties)
  const keyRule = rules.propertyKeys
  if (keyRule !== undefined && !names.every((name) => meetsName(name, keyRule))) return undefined
  if (required !== undefined) {
    // An undeclared required name is declared on the wire by the projection.
    if (!Array.isArray(required) || properties === undefined) return undefined
    if (!required.every((name) => typeof name === 'string' && Object.hasOwn(properties, name)))
      return undefined
  }
  if (
    additionalProperties !== undefined &&
    (typeof additionalProperties !== 'boolean' || !rules.keeps.has('additionalProperties'))
  )
    return undefined
  return properties === undefined ? NO_CHILDREN : Object.values(properties)
}
