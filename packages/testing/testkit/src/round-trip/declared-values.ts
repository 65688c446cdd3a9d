import fc from 'fast-check'
import type { JsonObject, JsonValue } from './tools.ts'

/**
 * Values for a declared schema, generated from the schema itself: each keyword the generator reads steers it towards
 * valid values (the harness keeps only those the contract's validator accepts), and every slot that admits them
 * also gets the hard cases — `null`, numbers, and strings that are JSON text of something else (`"42"`, `"null"`,
 * `"{\"a\":1}"`, `"\"x\""`), which a reader that guesses would parse.
 */
export const TRICKY_STRINGS: readonly string[] = [
  '42',
  '-0',
  '1e3',
  ' 7',
  'null',
  'true',
  'false',
  '""',
  '"x"',
  '[1,2]',
  '[false]',
  '{"a":1}',
  '{}',
  '[]',
  '',
  'red',
  'a-b',
]

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(null, true, false, 0, 1, -1, 42, 2.5),
  fc.constantFrom(...TRICKY_STRINGS),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -1000, max: 1000 }),
)

/** Any JSON value, shallow: what an untyped slot (`{}`, `true`, `type: "json"`) may hold. */
export const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: scalar, weight: 4 },
  { arbitrary: fc.array(scalar, { maxLength: 3 }), weight: 1 },
  {
    arbitrary: fc.dictionary(fc.constantFrom('a', 'b', 'k-1', 'x'), scalar, {
      maxKeys: 3,
      noNullPrototype: true,
    }) as fc.Arbitrary<JsonValue>,
    weight: 1,
  },
)

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function typesOf(node: JsonObject): readonly string[] | undefined {
  if (typeof node.type === 'string') return [node.type]
  if (Array.isArray(node.type)) return node.type as string[]
  return undefined
}

interface Context {
  readonly root: JsonObject
  readonly depth: number
}

// Past this depth (a `$ref` cycle, deep nesting) only scalars and empty containers are generated.
const MAX_DEPTH = 6

function resolve(root: JsonObject, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#')) return undefined
  let at: JsonValue | undefined = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    at = Array.isArray(at) ? at[Number(segment)] : isObject(at) ? at[segment] : undefined
    if (at === undefined) return undefined
  }
  return at
}

function ofType(type: string, node: JsonObject, context: Context): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'string': {
      const min = typeof node.minLength === 'number' ? node.minLength : 0
      const max = typeof node.maxLength === 'number' ? node.maxLength : min + 8
      return fc.oneof(
        fc.constantFrom(...TRICKY_STRINGS),
        fc.string({ minLength: min, maxLength: Math.max(min, max) }),
      )
    }
    case 'integer':
    case 'number': {
      const min = typeof node.minimum === 'number' ? Math.ceil(node.minimum) : -1000
      const max = typeof node.maximum === 'number' ? Math.floor(node.maximum) : 1000
      const integers = fc.integer({ min: Math.min(min, max), max: Math.max(min, max) })
      return type === 'integer' ? integers : fc.oneof(integers, fc.constantFrom(0.5, 2.5, -1.25))
    }
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'object':
      return objectOf(node, context)
    case 'array':
      return arrayOf(node, context)
    default:
      return anyJson
  }
}

function objectOf(node: JsonObject, context: Context): fc.Arbitrary<JsonValue> {
  const properties = isObject(node.properties) ? node.properties : {}
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
  const names = [...new Set([...Object.keys(properties), ...required])]
  const additional = node.additionalProperties
  const entries = names.map((name) => {
    const schema = Object.hasOwn(properties, name)
      ? properties[name]!
      : isObject(additional)
        ? additional
        : true
    const value = valueArbitrary(schema, { ...context, depth: context.depth + 1 })
    // An optional key is left out half the time: absence is a value of its own, and the one strict routes fill.
    return required.has(name)
      ? value.map((v) => [[name, v]] as [string, JsonValue][])
      : fc
          .option(value, { nil: undefined, freq: 2 })
          .map((v) => (v === undefined ? [] : [[name, v]]) as [string, JsonValue][])
  })
  const extra =
    additional === false
      ? fc.constant([] as [string, JsonValue][])
      : fc.array(
          fc.tuple(
            fc.constantFrom('extra', 'k_1', 'x-y'),
            isObject(additional)
              ? valueArbitrary(additional, { ...context, depth: context.depth + 1 })
              : anyJson,
          ),
          { maxLength: 1 },
        )
  return fc.tuple(fc.tuple(...entries), extra).map(([declared, more]) => {
    const value: JsonObject = {}
    for (const [key, child] of [...declared.flat(), ...more])
      if (!Object.hasOwn(value, key))
        Object.defineProperty(value, key, {
          value: child,
          enumerable: true,
          writable: true,
          configurable: true,
        })
    return value
  })
}

function arrayOf(node: JsonObject, context: Context): fc.Arbitrary<JsonValue> {
  const next = { ...context, depth: context.depth + 1 }
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined
  if (tuple !== undefined) return fc.tuple(...tuple.map((item) => valueArbitrary(item, next)))
  const items = isObject(node.items) || typeof node.items === 'boolean' ? node.items : true
  const min = typeof node.minItems === 'number' ? node.minItems : 0
  const max = typeof node.maxItems === 'number' ? node.maxItems : min + 3
  return fc.array(valueArbitrary(items, next), {
    minLength: min,
    maxLength: Math.max(min, Math.min(max, min + 3)),
  })
}

/** Values steered towards validity under `schema` (not all valid: the caller filters with the real validator). */
export function valueArbitrary(schema: JsonValue, context: Context): fc.Arbitrary<JsonValue> {
  if (schema === false) return fc.constant(null)
  if (!isObject(schema)) return anyJson
  if (context.depth > MAX_DEPTH)
    return fc.oneof(scalar, fc.constant<JsonValue>({}), fc.constant<JsonValue>([]))
  if (Object.hasOwn(schema, 'const')) return fc.constant(schema.const!)
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum)
  if (typeof schema.$ref === 'string') {
    const target = resolve(context.root, schema.$ref)
    return target === undefined ? anyJson : valueArbitrary(target, { ...context, depth: context.depth + 1 })
  }
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray)
  if (branches !== undefined && branches.length > 0)
    return fc.oneof(...branches.map((branch) => valueArbitrary(mergeSiblings(schema, branch), context)))
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
    return valueArbitrary(mergeSiblings(schema, schema.allOf[0]!), context)
  const types = typesOf(schema) ?? inferredTypes(schema)
  if (types === undefined) return anyJson
  return fc.oneof(...types.map((type) => ofType(type, schema, context)))
}

/** A branch read together with the keywords beside the union (a `type`, `properties`): what the value must meet. */
function mergeSiblings(node: JsonObject, branch: JsonValue): JsonValue {
  if (!isObject(branch)) return branch
  const { anyOf: _anyOf, oneOf: _oneOf, allOf: _allOf, ...siblings } = node
  return { ...siblings, ...branch }
}

function inferredTypes(node: JsonObject): readonly string[] | undefined {
  if (isObject(node.properties) || Array.isArray(node.required)) return ['object']
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return ['array']
  return undefined
}

/** Arbitrary arguments for a declared root (the caller keeps the valid ones). */
export function argumentsArbitrary(declared: JsonObject): fc.Arbitrary<JsonValue> {
  return valueArbitrary(declared, { root: declared, depth: 0 })
}
