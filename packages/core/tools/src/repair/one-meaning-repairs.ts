import type { SchemaViolation } from '../check/violation.ts'
import { parsePointer, toPointer } from '../json/json-pointer.ts'
import { defineOwn, isJsonObject, type JsonObject, type JsonValue, ownValue } from '../json/json-value.ts'
import { localRefs, resolveLocalRef } from '../schema/local-refs.ts'
import { repairUnionRoot } from './union-root.ts'

/**
 * The repairs for root-contract violations that have exactly one meaning, one definition for every entry point: the
 * plugin path in `mode: repair` (`enforce.ts`) and the MCP boundary (`mcp/mcp-schema.ts`). Each answers one
 * violation the root contract reported and says what the served schema has instead; a violation with no entry here
 * has more than one reading (or none), and a repair that guessed would change what the tool accepts.
 */
export interface OneMeaningFix {
  /**
   * What the served schema has in place of the mistake, read after "serve the tool": "as { type: 'object', … }",
   * "without this `required`". It names constructs and pointers only, never a value from the schema (a secret pasted
   * into an `enum` must not reach a notice).
   */
  readonly serves: string
  /** The violation as a repair report states it: what was wrong and why the repair means the same. */
  readonly report: SchemaViolation
}

/**
 * Where a fix applies: in place (no node moves), as a bare table's new root, as the one root rewrite, or in the last
 * pass, which declares the names the final root requires (`declareRequired`).
 */
type Step =
  | { readonly kind: 'in-place'; readonly apply: (hoist: (owner: JsonObject, name: string) => void) => void }
  | { readonly kind: 'wrap'; readonly apply: (root: JsonObject) => JsonObject }
  | { readonly kind: 'root'; readonly apply: (root: JsonObject) => RootRewrite }
  | { readonly kind: 'declared' }

type RootRewrite = { readonly root: JsonObject } | { readonly refused: SchemaViolation }

interface PlannedFix extends OneMeaningFix {
  readonly step: Step
}

/** The fixes for one schema's violations, planned before anything changes. */
export interface RepairPlan {
  /** One entry per violation, in order: its fix, or `undefined` when it has no single meaning. */
  readonly fixes: readonly (OneMeaningFix | undefined)[]
  /**
   * Applies every planned fix to the snapshot the plan was made on (changing it) and returns the new root, or, for a
   * root union with no object reading, the violation that says why (in place of the root contract's).
   */
  apply(): { readonly schema: JsonObject } | { readonly refused: SchemaViolation }
}

function nodeAt(root: JsonValue, segments: readonly string[]): JsonValue | undefined {
  return resolveLocalRef(localRefs(root), `#${toPointer(segments)}`)
}

/** The object holding the keyword a pointer names (`/a/required` → the node at `/a`), when it is one. */
function holderOf(root: JsonValue, segments: readonly string[]): JsonObject | undefined {
  const holder = nodeAt(root, segments.slice(0, -1))
  return isJsonObject(holder) ? holder : undefined
}

function objectRoot(properties: JsonValue, rest: JsonObject = {}): JsonObject {
  const root: JsonObject = { type: 'object' }
  for (const [key, value] of Object.entries(rest)) defineOwn(root, key, value)
  defineOwn(root, 'properties', properties)
  return root
}

const fix = (violation: SchemaViolation, serves: string, step: Step, report: Partial<SchemaViolation> = {}) =>
  ({ serves, step, report: { ...violation, ...report } }) satisfies PlannedFix

/** `required: null` (Go's nil slice, marshalled): null can only mean that nothing is required. */
function requiredNull(root: JsonValue, v: SchemaViolation, segments: string[]): PlannedFix | undefined {
  const holder = holderOf(root, segments)
  if (holder === undefined || ownValue(holder, 'required') !== null) return undefined
  return fix(
    v,
    'without this `required` (null there can only mean that nothing is required)',
    // Only while still null: a name hoisted here from a property's `required: true` makes it a list.
    { kind: 'in-place', apply: () => holder.required === null && delete holder.required },
    {
      message: '`required: null` is not an array; it can only mean "nothing is required"',
      hint: 'leave `required` out, or list the required property names',
    },
  )
}

/** `properties: null` (Go's nil map, marshalled): null can only mean that no property is declared, as `{}` does. */
function propertiesNull(root: JsonValue, v: SchemaViolation, segments: string[]): PlannedFix | undefined {
  const holder = holderOf(root, segments)
  if (segments.at(-1) !== 'properties' || holder === undefined || ownValue(holder, 'properties') !== null)
    return undefined
  return fix(
    v,
    'with `properties: {}` here',
    { kind: 'in-place', apply: () => defineOwn(holder, 'properties', {}) },
    {
      message: '`properties: null` is not a map; it can only mean "no property is declared", as `{}` says',
      hint: 'write properties: {}, or declare the properties',
    },
  )
}

/**
 * `required: true` inside a property (draft-03's spelling): the name joins its object's `required`; `false` is
 * dropped. The object is the one whose `properties` holds the property, or the new root of a bare property table.
 */
function requiredInProperty(root: JsonValue, v: SchemaViolation, segments: string[]): PlannedFix | undefined {
  const property = holderOf(root, segments)
  const name = segments.at(-2)
  const owner =
    segments.length === 2
      ? root
      : segments.at(-3) === 'properties'
        ? nodeAt(root, segments.slice(0, -3))
        : undefined
  if (property === undefined || name === undefined || !isJsonObject(owner)) return undefined
  const wanted = ownValue(property, 'required') === true
  return fix(
    v,
    wanted ? "with this name listed in its object's `required`" : 'without this `required: false`',
    {
      kind: 'in-place',
      apply: (hoist) => {
        delete property.required
        if (wanted) hoist(owner, name)
      },
    },
  )
}

/** Adds `names` to the object's `required`, each once, in one pass (a table may hoist thousands). */
function addRequired(object: JsonObject, names: readonly string[]): void {
  const existing = ownValue(object, 'required')
  const merged = Array.isArray(existing) ? [...existing] : []
  const listed = new Set(merged)
  for (const name of names) {
    if (listed.has(name)) continue
    listed.add(name)
    merged.push(name)
  }
  defineOwn(object, 'required', merged)
}

/**
 * A root that is only a `$ref` to a local object schema, with the target inlined; its `$defs`/`definitions` stay so
 * references inside the target still resolve.
 */
function rootRef(root: JsonObject, v: SchemaViolation): PlannedFix | undefined {
  const ref = ownValue(root, '$ref')
  const segments = typeof ref === 'string' ? parsePointer(ref) : undefined
  if (segments === undefined || segments.length === 0) return undefined
  const target = nodeAt(root, segments)
  if (!isJsonObject(target) || ownValue(target, 'type') !== 'object') return undefined
  return fix(v, 'as the object schema its `$ref` names, inlined at the root', {
    kind: 'root',
    apply: (current) => {
      const { $ref: _ref, ...rest } = current
      const inlined: JsonObject = {}
      for (const [key, value] of [...Object.entries(rest), ...Object.entries(target)])
        defineOwn(inlined, key, value)
      return { root: inlined }
    },
  })
}

/** A root union of object schemas as one object root: `union-root.ts` says why that keeps its meaning. */
function rootUnion(root: JsonObject, v: SchemaViolation): PlannedFix | undefined {
  // The union repair reads `anyOf` first: a root with both has no fix for its `oneOf`, so it is planned once.
  const keyword = Array.isArray(ownValue(root, 'anyOf'))
    ? 'anyOf'
    : Array.isArray(ownValue(root, 'oneOf'))
      ? 'oneOf'
      : undefined
  if (keyword === undefined || (v.pointer !== '' && v.pointer !== `/${keyword}`)) return undefined
  return fix(
    v,
    "as one object root { type: 'object', properties: <every branch's properties> }, the alternatives kept as if/else and checked before the tool runs",
    {
      kind: 'root',
      apply: (current) => {
        const union = repairUnionRoot(current)
        if (union.kind === 'refused') return { refused: union.violation }
        // `none` leaves the root as it is, and the recheck reports the violation again.
        return { root: union.kind === 'repaired' ? (union.schema as JsonObject) : current }
      },
    },
    {
      pointer: `/${keyword}`,
      message: `a root \`${keyword}\` of object schemas: served as one object root listing every branch's properties, the alternatives kept as if/else and enforced before the tool runs`,
      hint: 'declare one object root whose branch-specific fields are optional, and check the combinations in the tool',
    },
  )
}

/**
 * `required` naming a key `properties` does not declare: in JSON Schema (2020-12 §10.3.2.3, draft-07 §6.5.3) the key
 * must be present, with any value `additionalProperties` admits for it; declaring it with that schema (`{}` when
 * absent) says exactly the same, and Gemini refuses the undeclared name ("required[0]: property is not defined").
 * Under `additionalProperties: false` no call can be valid, and `patternProperties` may govern the key: those have no
 * repair. `undefined` when `root` is not such an object; else the schema an undeclared name gets.
 */
function undeclaredNameSchema(root: JsonObject): JsonValue | undefined {
  const additional = ownValue(root, 'additionalProperties') ?? {}
  if (ownValue(root, 'type') !== 'object' || ownValue(root, 'patternProperties') !== undefined)
    return undefined
  if (additional === false || (additional !== true && !isJsonObject(additional))) return undefined
  const properties = ownValue(root, 'properties')
  return properties === undefined || isJsonObject(properties)
    ? additional === true
      ? {}
      : additional
    : undefined
}

/**
 * Declares every name the root's `required` lists and its `properties` do not, where that has one meaning: the
 * names the root contract found, and those a root rewrite made (every branch of a union requires a key none declares).
 */
function declareRequired(root: JsonObject): void {
  const required = ownValue(root, 'required')
  const schema = undeclaredNameSchema(root)
  if (!Array.isArray(required) || schema === undefined) return
  const properties = ownValue(root, 'properties')
  const table = isJsonObject(properties) ? properties : {}
  for (const name of required)
    if (typeof name === 'string' && !Object.hasOwn(table, name)) defineOwn(table, name, schema)
  defineOwn(root, 'properties', table)
}

function requiredUndeclared(
  root: JsonObject,
  v: SchemaViolation,
  segments: string[],
): PlannedFix | undefined {
  const schema = undeclaredNameSchema(root)
  if (segments.length !== 2 || segments[0] !== 'required' || schema === undefined) return undefined
  const any = isJsonObject(schema) && Object.keys(schema).length === 0
  const admitted = any ? 'any value' : 'what `additionalProperties` admits'
  return fix(
    v,
    `with the name at ${v.pointer} declared under \`properties\` as ${admitted}`,
    { kind: 'declared' },
    {
      message: `requires a name \`properties\` does not declare: the key must be present with ${admitted}, so it is declared that way`,
      hint: 'declare the name under `properties` with its schema',
    },
  )
}

function planFix(root: JsonValue, v: SchemaViolation): PlannedFix | undefined {
  const segments = parsePointer(v.pointer)
  if (segments === undefined || !isJsonObject(root)) return undefined
  switch (v.rule) {
    case 'bare-property-table':
      return fix(v, "as { type: 'object', properties: <this table> }", {
        kind: 'wrap',
        apply: (table) => objectRoot(table),
      })
    case 'root-empty':
      return fix(v, "as { type: 'object', properties: {} }", {
        kind: 'root',
        // The metadata a root of only `$schema`, `title`… has stays in front, as declared.
        apply: (current) => {
          const root: JsonObject = {}
          for (const [key, value] of Object.entries(current)) defineOwn(root, key, value)
          return { root: Object.assign(root, { type: 'object', properties: {} }) }
        },
      })
    case 'root-type-missing':
      return fix(v, "with type: 'object' added at the root", {
        kind: 'root',
        apply: ({ properties, ...rest }) => ({ root: objectRoot(properties ?? {}, rest) }),
      })
    case 'required-in-property':
      return requiredInProperty(root, v, segments)
    case 'required-not-array':
      return requiredNull(root, v, segments)
    case 'keyword-type':
      return propertiesNull(root, v, segments)
    case 'root-ref':
      return rootRef(root, v)
    case 'root-union':
      return rootUnion(root, v)
    case 'required-undeclared':
      return requiredUndeclared(root, v, segments)
    default:
      return undefined
  }
}

/**
 * Plans the fix of every violation that has one. `apply` keeps each pointer valid by its order: a bare table's wrap
 * first (it moves no node, and what is hoisted into the table's object lands in the new root), then the in-place
 * fixes, then the one root rewrite (a union reads its branches as fixed), then the names the final root requires and
 * does not declare. Bounded work, linear in the size of the snapshot.
 */
export function planOneMeaningRepairs(
  snapshot: JsonValue,
  violations: readonly SchemaViolation[],
): RepairPlan {
  const planned = violations.map((v) => planFix(snapshot, v))
  return {
    fixes: planned.map((p) => (p === undefined ? undefined : { serves: p.serves, report: p.report })),
    apply: () => {
      if (!isJsonObject(snapshot)) return { schema: {} }
      const steps = planned.flatMap((p) => (p === undefined ? [] : [p.step]))
      let root = snapshot
      for (const step of steps) if (step.kind === 'wrap') root = step.apply(root)
      const wrapped = root
      const hoisted = new Map<JsonObject, string[]>()
      const hoist = (owner: JsonObject, name: string): void => {
        // A bare table's entries belong to the root that wraps it.
        const object = owner === snapshot ? wrapped : owner
        const names = hoisted.get(object)
        if (names === undefined) hoisted.set(object, [name])
        else names.push(name)
      }
      for (const step of steps) if (step.kind === 'in-place') step.apply(hoist)
      for (const [object, names] of hoisted) addRequired(object, names)
      for (const step of steps) {
        if (step.kind !== 'root') continue
        const rewrite = step.apply(root)
        if ('refused' in rewrite) return rewrite
        root = rewrite.root
      }
      declareRequired(root)
      return { schema: root }
    },
  }
}
