import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING } from './json-type-bits.ts'

/**
 * What a declared schema node admits, as far as a cheap structural check can tell: compiled once per node (when a
 * reading first needs it) and matched against values on the hot path. A union decoder names its declared node, so a
 * string that one branch takes as it is and another as JSON text is parsed only into a value the union can hold:
 * `"[false]"` beside a string branch and a tuple `[string, integer]` stays the string it is, where a check of the
 * JSON type alone (`array`) would parse it into a value every branch rejects.
 *
 * A shape over-approximates (every value the node admits fits; some it does not admit fit too): it knows types,
 * `enum`/`const` scalars, string and number bounds, tuples and items, array length, properties, `required` and
 * `additionalProperties`, and follows `anyOf`/`oneOf` (as anyOf), `allOf` and local `$ref`s; every other keyword
 * (`pattern`, `format`, `not`, `if`, ...) it ignores. A `$ref` cycle makes a cyclic shape, which matching handles:
 * matching is bounded by the value, and by a step budget linear in the text the value was parsed from (past it, or
 * past `MAX_DEPTH` frames, a value counts as fitting: the reading the shape check refines is the parse).
 */
export interface Shape {
  /** The JSON types admitted, as `TYPE` bits (`ALL` when any). */
  readonly types: number
  /** `enum`/`const`: the scalar values admitted, and whether a listed container admits containers of its type. */
  readonly values?: ReadonlySet<unknown> | undefined
  readonly containerValues?: boolean | undefined
  readonly minLength?: number | undefined
  readonly maxLength?: number | undefined
  readonly minimum?: number | undefined
  readonly maximum?: number | undefined
  readonly exclusiveMinimum?: number | undefined
  readonly exclusiveMaximum?: number | undefined
  /** Items by position (a tuple), then `rest` for the items past it (absent: any). */
  readonly prefix?: readonly Shape[] | undefined
  readonly rest?: Shape | undefined
  readonly minItems?: number | undefined
  readonly maxItems?: number | undefined
  readonly properties?: ReadonlyMap<string, Shape> | undefined
  readonly required?: readonly string[] | undefined
  /** The keys `properties` does not name (absent: any). */
  readonly additional?: Shape | undefined
  /** Every one of these must fit (`allOf`). */
  readonly all?: readonly Shape[] | undefined
  /** From each of these lists one must fit (`anyOf`, `oneOf`). */
  readonly unions?: readonly (readonly Shape[])[] | undefined
}

const ALL = OBJECT | ARRAY | STRING | NUMBER | BOOLEAN | NULL | INTEGER

const TYPE: ReadonlyMap<string, number> = new Map([
  ['object', OBJECT],
  ['array', ARRAY],
  ['string', STRING],
  ['number', NUMBER | INTEGER],
  ['integer', INTEGER],
  ['boolean', BOOLEAN],
  ['null', NULL],
])

export const ANY_SHAPE: Shape = Object.freeze({ types: ALL })
const NO_VALUE: Shape = Object.freeze({ types: 0 })

function typeOf(value: unknown): number {
  if (value === null) return NULL
  if (Array.isArray(value)) return ARRAY
  switch (typeof value) {
    case 'object':
      return OBJECT
    case 'string':
      return STRING
    case 'number':
      return Number.isInteger(value) ? INTEGER : NUMBER
    case 'boolean':
      return BOOLEAN
    default:
      return 0
  }
}

/** What compiling shapes needs: `$ref` resolution in the declared document, a memo per node, and a work meter. */
export interface ShapeContext {
  resolve(ref: string): JsonValue | undefined
  readonly memo: WeakMap<object, Shape>
  readonly meter: WorkMeter | undefined
}

type Draft = { -readonly [K in keyof Shape]: Shape[K] }

const number = (value: JsonValue | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

/**
 * The shape of a declared schema node. Each node is compiled once per context, on an explicit work list: a node's
 * shape is created when first named and filled when its turn comes, so shared `$defs` and `$ref` cycles cost one
 * visit per node.
 */
export function declaredShape(context: ShapeContext, node: JsonValue): Shape {
  const pending: [JsonObject, Draft][] = []
  const shapeOf = (schema: JsonValue | undefined): Shape => {
    if (schema === false) return NO_VALUE
    if (!isJsonObject(schema)) return ANY_SHAPE
    const known = context.memo.get(schema)
    if (known !== undefined) return known
    if (typeof schema.$ref === 'string') return refShape(context, schema, shapeOf)
    const draft: Draft = { types: ALL }
    context.memo.set(schema, draft)
    pending.push([schema, draft])
    return draft
  }
  const root = shapeOf(node)
  while (pending.length > 0) {
    const [schema, draft] = pending.pop()!
    context.meter?.count('shape-node')
    fill(schema, draft, shapeOf)
  }
  return root
}

/**
 * The shape of a `$ref` node: its target's, the chain followed (siblings are left out, which only widens: draft-07
 * ignores them), memoized for every link; any value on a cycle or a reference that does not resolve.
 */
function refShape(
  context: ShapeContext,
  node: JsonObject,
  shapeOf: (schema: JsonValue | undefined) => Shape,
): Shape {
  const chain = new Set<JsonObject>()
  let at: JsonValue | undefined = node
  let shape: Shape | undefined
  while (shape === undefined) {
    if (!isJsonObject(at) || typeof at.$ref !== 'string') shape = shapeOf(at)
    else if (chain.has(at)) shape = ANY_SHAPE
    else {
      chain.add(at)
      context.meter?.count('shape-node')
      shape = context.memo.get(at)
      if (shape === undefined) at = context.resolve(at.$ref) ?? true
    }
  }
  for (const link of chain) context.memo.set(link, shape)
  return shape
}

function fill(schema: JsonObject, draft: Draft, shapeOf: (schema: JsonValue | undefined) => Shape): void {
  const own = (key: string): JsonValue | undefined => (Object.hasOwn(schema, key) ? schema[key] : undefined)
  const type = own('type')
  if (typeof type === 'string') draft.types = TYPE.get(type) ?? ALL
  else if (Array.isArray(type))
    draft.types = type.reduce<number>((bits, t) => bits | (TYPE.get(String(t)) ?? ALL), 0)
  // OpenAPI's word for "also null", which projection writes on the routes that use it.
  if (draft.types !== ALL && own('nullable') === true) draft.types |= NULL
  const listed = Array.isArray(own('enum')) ? (own('enum') as JsonValue[]) : undefined
  const values = Object.hasOwn(schema, 'const') ? [own('const')!] : listed
  if (values !== undefined) {
    draft.values = new Set(
      values.filter((value) => typeOf(value) & (STRING | NUMBER | INTEGER | BOOLEAN | NULL)),
    )
    draft.containerValues = values.some((value) => typeOf(value) & (OBJECT | ARRAY))
  }
  draft.minLength = number(own('minLength'))
  draft.maxLength = number(own('maxLength'))
  draft.minimum = number(own('minimum'))
  draft.maximum = number(own('maximum'))
  draft.exclusiveMinimum = number(own('exclusiveMinimum'))
  draft.exclusiveMaximum = number(own('exclusiveMaximum'))
  fillArray(own, draft, shapeOf)
  fillObject(own, draft, shapeOf)
  const members = own('allOf')
  if (Array.isArray(members) && members.length > 0) draft.all = members.map(shapeOf)
  const unions = [own('anyOf'), own('oneOf')].filter(
    (list): list is JsonValue[] => Array.isArray(list) && list.length > 0,
  )
  if (unions.length > 0) draft.unions = unions.map((list) => list.map(shapeOf))
}

function fillArray(
  own: (key: string) => JsonValue | undefined,
  draft: Draft,
  shapeOf: (schema: JsonValue | undefined) => Shape,
): void {
  const prefixItems = own('prefixItems')
  const items = own('items')
  // 2020-12 writes a tuple as prefixItems (then items for the rest); draft-07 as an items array (additionalItems).
  const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : undefined
  const rest = Array.isArray(prefixItems) ? items : Array.isArray(items) ? own('additionalItems') : items
  if (tuple !== undefined) draft.prefix = tuple.map(shapeOf)
  if (rest !== undefined && !Array.isArray(rest)) draft.rest = shapeOf(rest)
  draft.minItems = number(own('minItems'))
  draft.maxItems = number(own('maxItems'))
}

function fillObject(
  own: (key: string) => JsonValue | undefined,
  draft: Draft,
  shapeOf: (schema: JsonValue | undefined) => Shape,
): void {
  const properties = own('properties')
  if (isJsonObject(properties))
    draft.properties = new Map(Object.keys(properties).map((key) => [key, shapeOf(properties[key])]))
  const required = own('required')
  if (Array.isArray(required)) draft.required = required.filter((key) => typeof key === 'string')
  const additional = own('additionalProperties')
  // Keys a pattern matches are not "additional", and which those are is not followed here.
  if (additional !== undefined && own('patternProperties') === undefined)
    draft.additional = shapeOf(additional)
}

// A value counts as fitting past this many nested checks (the call stack stays small whatever the value's depth).
const MAX_DEPTH = 128
// Checks allowed per character of the text the value was parsed from, and for any text.
const STEPS_PER_CHAR = 4
const BASE_STEPS = 256

interface Match {
  steps: number
  readonly meter: WorkMeter | undefined
}

/**
 * Whether `value`, parsed from a text of `textLength` characters, fits `shape` (absent: any). Linear in the text: at
 * most `STEPS_PER_CHAR` checks per character (each union branch tried counts), after which the value fits.
 */
export function fitsShape(
  value: unknown,
  shape: Shape | undefined,
  textLength: number,
  meter?: WorkMeter,
): boolean {
  if (shape === undefined) return true
  const match: Match = { steps: STEPS_PER_CHAR * textLength + BASE_STEPS, meter }
  return fits(match, value, shape, 0) || match.steps <= 0
}

function fits(match: Match, value: unknown, shape: Shape, depth: number): boolean {
  if (match.steps <= 0 || depth > MAX_DEPTH) return true
  match.steps--
  match.meter?.count('shape-node')
  const type = typeOf(value)
  if ((shape.types & type) === 0) return false
  if (
    shape.values !== undefined &&
    !(type & (OBJECT | ARRAY) ? shape.containerValues : shape.values.has(value))
  )
    return false
  if (type === STRING && !fitsLength(match, value as string, shape)) return false
  if (type & (NUMBER | INTEGER) && !fitsBounds(value as number, shape)) return false
  if (type === ARRAY && !fitsArray(match, value as readonly unknown[], shape, depth)) return false
  if (type === OBJECT && !fitsObject(match, value as Readonly<Record<string, unknown>>, shape, depth))
    return false
  for (const member of shape.all ?? []) if (!fits(match, value, member, depth + 1)) return false
  for (const branches of shape.unions ?? [])
    if (!branches.some((branch) => fits(match, value, branch, depth + 1))) return false
  return true
}

function fitsLength(match: Match, text: string, shape: Shape): boolean {
  if (shape.minLength === undefined && shape.maxLength === undefined) return true
  // JSON Schema counts code points; counting them is one more step per character.
  match.steps -= text.length
  let length = 0
  for (const _ of text) length++
  return length >= (shape.minLength ?? 0) && length <= (shape.maxLength ?? Number.POSITIVE_INFINITY)
}

function fitsBounds(value: number, shape: Shape): boolean {
  return (
    !(shape.minimum !== undefined && value < shape.minimum) &&
    !(shape.maximum !== undefined && value > shape.maximum) &&
    !(shape.exclusiveMinimum !== undefined && value <= shape.exclusiveMinimum) &&
    !(shape.exclusiveMaximum !== undefined && value >= shape.exclusiveMaximum)
  )
}

function fitsArray(match: Match, value: readonly unknown[], shape: Shape, depth: number): boolean {
  if (shape.minItems !== undefined && value.length < shape.minItems) return false
  if (shape.maxItems !== undefined && value.length > shape.maxItems) return false
  const prefix = shape.prefix ?? []
  if (prefix.length === 0 && shape.rest === undefined) return true
  for (const [index, item] of value.entries()) {
    const of = index < prefix.length ? prefix[index] : shape.rest
    if (of !== undefined && !fits(match, item, of, depth + 1)) return false
    if (match.steps <= 0) return true
  }
  return true
}

function fitsObject(
  match: Match,
  value: Readonly<Record<string, unknown>>,
  shape: Shape,
  depth: number,
): boolean {
  for (const key of shape.required ?? []) if (!Object.hasOwn(value, key)) return false
  const { properties, additional } = shape
  if (properties === undefined && additional === undefined) return true
  for (const key of Object.keys(value)) {
    const of = properties?.get(key) ?? additional
    if (of !== undefined && !fits(match, value[key], of, depth + 1)) return false
    if (match.steps <= 0) return true
  }
  return true
}
