import type { SchemaViolation } from '../check/violation.ts'
import { toPointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import { isPlainRecord, ownField } from '../json/plain-data.ts'
import { type LocalRefs, localRefs, resolveLocalRef } from '../schema/local-refs.ts'

/**
 * A root that is a union of object schemas (`{ anyOf: [A, B] }`, with or without `type: "object"`), as schema
 * generators emit for discriminated inputs. Every model route wants one plain object root, and the MCP SDK refuses a
 * root without `type: "object"`. The repair says the same thing as one object root:
 *
 * - the union itself moves into `if`/`else`, which JSON Schema defines exactly: `anyOf [A, B, …]` is
 *   `{ if: A, else: { anyOf: [B, …] } }` (valid when A holds, else the rest must), `oneOf [A, B, …]` is
 *   `{ if: A, then: { not: { anyOf: [B, …] } }, else: { oneOf: [B, …] } }`. Arguments are always an object, so
 *   `type: "object"` beside it excludes nothing a call can send;
 * - `properties` lists every key a branch declares, each with the union of what the branches admit there (a branch
 *   that does not declare the key admits what its `additionalProperties` does: any value when it is absent), and
 *   `required` the keys every branch requires: both follow from the union, so they add no constraint. They are what
 *   the wire shows the model; the `if`/`else` is enforced locally (projection keeps it off every route's wire).
 *
 * Only a branch that is not an object schema (a boolean, a typed non-object, a `$ref` that resolves to none) has no
 * such reading: the tool is isolated and the notice names the branch.
 */
export type UnionRootRepair =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'repaired'
      readonly schema: Record<string, unknown>
      readonly repaired: SchemaViolation
    }
  | { readonly kind: 'refused'; readonly violation: SchemaViolation }

const MAX_REF_HOPS = 32

function unionKeyword(schema: Record<string, unknown>): 'anyOf' | 'oneOf' | undefined {
  if (Array.isArray(ownField(schema, 'anyOf'))) return 'anyOf'
  if (Array.isArray(ownField(schema, 'oneOf'))) return 'oneOf'
  return undefined
}

/**
 * The object schema a branch is, following local `$ref`s; `never` when it admits no object (so no call can take it);
 * a string says why it has no reading as a list of properties.
 */
function branchObject(refs: LocalRefs, branch: JsonValue): JsonObject | 'never' | string {
  let at: JsonValue | undefined = branch
  for (let hop = 0; isJsonObject(at) && typeof at.$ref === 'string'; hop++) {
    if (hop === MAX_REF_HOPS) return `its \`$ref\` chain is longer than ${MAX_REF_HOPS}`
    const ref: string = at.$ref
    const { $ref: _ref, ...siblings } = at
    const target = resolveLocalRef(refs, ref)
    if (!isJsonObject(target)) return 'its `$ref` does not name an object schema'
    at = Object.keys(siblings).length === 0 ? target : bothOf(target, siblings)
  }
  if (at === false) return 'never'
  if (!isJsonObject(at))
    return `it is ${Array.isArray(at) ? 'a list' : `a ${typeof at}`}, not an object schema`
  const type = at.type
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object')))
    return 'never'
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'not', 'if'])
    if (Object.hasOwn(at, keyword))
      return `it has its own \`${keyword}\`, so which keys it admits is not a list of properties`
  return at
}

/**
 * A `$ref` with sibling keywords means both (JSON Schema 2019-09 on: the reference is one more assertion, an
 * `allOf`). For the list of properties the merge reads, each keyword of either side is wider than both together,
 * except `properties` beside the other side's `additionalProperties`: a key one side declares and the other does not
 * would fall to the other's `additionalProperties` (`false`, say) and read narrower than it is. So `properties`
 * merge key by key (a key both declare must meet both), `required` is every name either requires, and
 * `additionalProperties` must meet both; any other keyword is the siblings' (wider than both, as the merge needs).
 */
function bothOf(target: JsonObject, siblings: JsonObject): JsonObject {
  const both: JsonObject = { ...target, ...siblings }
  const ours = isJsonObject(siblings.properties) ? siblings.properties : undefined
  const theirs = isJsonObject(target.properties) ? target.properties : undefined
  if (ours !== undefined && theirs !== undefined) {
    const properties: JsonObject = { ...theirs }
    for (const [key, slot] of Object.entries(ours))
      Object.defineProperty(properties, key, {
        value: Object.hasOwn(theirs, key) ? { allOf: [theirs[key]!, slot] } : slot,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    both.properties = properties
  }
  if (Array.isArray(target.required) && Array.isArray(siblings.required))
    both.required = [...new Set([...target.required, ...siblings.required])]
  if (target.additionalProperties !== undefined && siblings.additionalProperties !== undefined)
    both.additionalProperties = { allOf: [target.additionalProperties, siblings.additionalProperties] }
  return both
}

function isAny(schema: JsonValue): boolean {
  return schema === true || (isJsonObject(schema) && Object.keys(schema).length === 0)
}

// Past this many distinct `additionalProperties` schemas a key's slot is written as any value (wider, still implied),
// so a wide union costs linear time.
const MAX_ADDITIONAL_SLOTS = 4

/**
 * Per key, a schema every branch's value at that key satisfies: the union of the branches' declared schemas, plus
 * what a branch that does not declare the key admits there (its `additionalProperties`; any value when it is open or
 * has `patternProperties`). Wider than that union is still implied by it, so the merged `properties` constrain
 * nothing the union does not. Linear in the size of the branches.
 */
function mergedProperties(objects: readonly JsonObject[], skip: JsonObject): JsonObject {
  const declaredBy = new Map<string, { slots: Map<string, JsonValue>; open: number; additional: number }>()
  let open = 0
  const additional = new Map<string, JsonValue>()
  let additionalBranches = 0
  for (const branch of objects) {
    const extra = branch.additionalProperties
    const isOpen =
      isJsonObject(branch.patternProperties) || extra === undefined || extra === true || isAny(extra)
    const hasSchema = !isOpen && isJsonObject(extra)
    if (isOpen) open++
    if (hasSchema) {
      additionalBranches++
      additional.set(JSON.stringify(extra), extra)
    }
    if (!isJsonObject(branch.properties)) continue
    for (const [key, slot] of Object.entries(branch.properties)) {
      let entry = declaredBy.get(key)
      if (entry === undefined) {
        entry = { slots: new Map(), open: 0, additional: 0 }
        declaredBy.set(key, entry)
      }
      entry.slots.set(JSON.stringify(slot), slot)
      if (isOpen) entry.open++
      if (hasSchema) entry.additional++
    }
  }
  const properties: JsonObject = { ...skip }
  for (const [key, entry] of declaredBy) {
    if (Object.hasOwn(skip, key)) continue
    const slots = [...entry.slots.values()]
    let merged: JsonValue
    if (open > entry.open || slots.some(isAny)) merged = {}
    else if (additionalBranches > entry.additional && additional.size > MAX_ADDITIONAL_SLOTS) merged = {}
    else {
      const all = new Map(entry.slots)
      if (additionalBranches > entry.additional) for (const [text, slot] of additional) all.set(text, slot)
      const distinct = [...all.values()]
      merged = distinct.some(isAny) ? {} : distinct.length === 1 ? distinct[0]! : { anyOf: distinct }
    }
    Object.defineProperty(properties, key, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return properties
}

/** The names every branch requires: counted, so a wide union costs linear time. */
function commonRequired(objects: readonly JsonObject[]): string[] {
  const counts = new Map<string, number>()
  for (const branch of objects) {
    const names = new Set(
      Array.isArray(branch.required) ? branch.required.filter((n) => typeof n === 'string') : [],
    )
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return [...counts].filter(([, count]) => count === objects.length).map(([name]) => name)
}

/** `anyOf`/`oneOf` of `branches` as `if`/`then`/`else`, exactly (see the module comment). */
function asConditional(keyword: 'anyOf' | 'oneOf', branches: readonly JsonValue[]): JsonObject {
  const [first, ...rest] = branches
  // One alternative is that alternative: `if A else false` holds exactly where A does.
  if (rest.length === 0) return { if: first!, else: false }
  const others: JsonValue = rest.length === 1 ? rest[0]! : { [keyword]: rest }
  if (keyword === 'anyOf') return { if: first!, else: others }
  const anyOther: JsonValue = rest.length === 1 ? rest[0]! : { anyOf: rest }
  // Defined by key: `then` is a JSON Schema keyword here, and an object literal with it reads as a thenable.
  const conditional: JsonObject = { if: first!, else: others }
  Object.defineProperty(conditional, 'then', {
    value: { not: anyOther },
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return conditional
}

export function repairUnionRoot(schema: unknown): UnionRootRepair {
  if (!isPlainRecord(schema)) return { kind: 'none' }
  const keyword = unionKeyword(schema)
  if (keyword === undefined) return { kind: 'none' }
  const type = ownField(schema, 'type')
  if (type !== undefined && type !== 'object') return { kind: 'none' }
  const refuse = (pointer: string, why: string): UnionRootRepair => ({
    kind: 'refused',
    violation: {
      pointer,
      rule: 'root-union',
      message: `a root \`${keyword}\` has no single object reading: ${why}`,
      hint: 'make every alternative an object schema (properties, required, additionalProperties), or move the alternatives under a property',
    },
  })
  for (const clash of ['if', 'then', 'else', 'allOf', 'not'])
    if (Object.hasOwn(schema, clash))
      return refuse(`/${clash}`, `the root also has \`${clash}\`, which the repair would need for the union`)
  const document = schema as JsonObject
  const branches = schema[keyword] as JsonValue[]
  if (branches.length === 0) return refuse(`/${keyword}`, 'it lists no alternative, so no call is valid')
  const objects: JsonObject[] = []
  const refs = localRefs(document)
  for (const [index, branch] of branches.entries()) {
    const object = branchObject(refs, branch)
    // A branch no object matches is kept in the union (it still never matches), but adds no property.
    if (object === 'never') continue
    if (typeof object === 'string') return refuse(toPointer([keyword, index]), `branch ${index}: ${object}`)
    objects.push(object)
  }
  if (objects.length === 0)
    return refuse(`/${keyword}`, 'no alternative admits an object, and tool arguments are always one')
  const rootProperties = isJsonObject(document.properties) ? document.properties : {}
  const properties = mergedProperties(objects, rootProperties)
  const common = commonRequired(objects)
  const rootRequired = Array.isArray(document.required) ? (document.required as string[]) : []
  const required = [...new Set([...rootRequired, ...common])]
  const { [keyword]: _union, ...siblings } = document
  const repaired: JsonObject = { ...siblings, type: 'object', properties }
  if (required.length > 0) repaired.required = required
  const closed = objects.every((b) => b.additionalProperties === false && b.patternProperties === undefined)
  if (closed && !Object.hasOwn(document, 'additionalProperties')) repaired.additionalProperties = false
  Object.assign(repaired, asConditional(keyword, branches))
  return {
    kind: 'repaired',
    schema: repaired,
    repaired: {
      pointer: `/${keyword}`,
      rule: 'root-union',
      message: `a root \`${keyword}\` of ${branches.length} object schemas: served as one object root listing every branch's properties, the alternatives kept as if/else and enforced before the tool runs`,
      hint: 'declare one object root whose branch-specific fields are optional, and check the combinations in the tool',
    },
  }
}
