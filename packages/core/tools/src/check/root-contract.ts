import { isJsonObject, type JsonObject, type JsonValue, ownValue } from '../json/json-value.ts'
import { DEFAULT_LIMITS, type SizeLimits } from '../json/limits.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { KEYWORD_SHAPES, type KeywordShape } from '../schema/keywords.ts'
import { checkSchemaShape } from './schema-shape.ts'
import { snapshotJson } from './snapshot.ts'
import type { SchemaRule, SchemaViolation } from './violation.ts'

/**
 * The root contract for a tool's `parameters`: an object-rooted JSON Schema (`type: "object"`) whose `properties` is
 * a map of schemas and whose `required` names declared properties, made of lossless JSON within the size limits.
 * Model APIs reject every request of a session over one tool that breaks it, so it is checked when a tool loads.
 */
export interface RootContractResult {
  readonly violations: readonly SchemaViolation[]
  /**
   * Whenever `parameters` were readable as lossless JSON: the detached plain-JSON copy every check read (valid or
   * not), for the caller to keep and for repairs to work on. `undefined` when they were not readable.
   */
  readonly snapshot: JsonValue | undefined
}

const ROOT_UNION_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'not'] as const
const ROOT_VALUE_KEYWORDS = ['enum', 'const'] as const
// Keywords that describe a schema without constraining it: a root made only of these constrains nothing, like `{}`.
const METADATA_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  '$defs',
  'definitions',
])
const WRAP_HINT = "wrap it: { type: 'object', properties: <this table>, required: [...] }"

function violation(pointer: string, rule: SchemaRule, message: string, hint: string): SchemaViolation {
  return { pointer, rule, message, hint }
}

function describeRoot(value: JsonValue): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'boolean' ? `the boolean schema ${value}` : `a ${typeof value}`
}

// Keywords whose value may be an object: under one of these names an object value is ambiguous (keyword or property).
const OBJECT_VALUED_SHAPES: ReadonlySet<KeywordShape> = new Set([
  'schema',
  'schema-or-schema-list',
  'schema-map',
  'pattern-schema-map',
  'dependencies',
  'string-list-map',
  'boolean-map',
])

/**
 * True when `key` can read as a keyword: `{ items: { type: 'string' } }` may be an array schema missing its type as
 * well as a table with a property called "items", so such a root is not an unambiguous bare table.
 */
function usesKeyword(object: JsonObject, key: string): boolean {
  const shape = KEYWORD_SHAPES.get(key)
  const value = object[key]
  if (shape === undefined || value === undefined) return false
  return isJsonObject(value) ? OBJECT_VALUED_SHAPES.has(shape) : true
}

function looksLikeSchema(value: JsonValue): boolean {
  return isJsonObject(value) && Object.keys(value).some((key) => KEYWORD_SHAPES.has(key))
}

/** A root with no `type`: which of the common mistakes is it? */
function classifyUntypedRoot(root: JsonObject): SchemaViolation {
  const keys = Object.keys(root)
  if (keys.length === 0) {
    return violation(
      '',
      'root-empty',
      '`{}` has no `type: "object"`, which DeepSeek and OpenAI reject for every request',
      "for a tool with no arguments write { type: 'object', properties: {} }",
    )
  }
  if (typeof ownValue(root, '$ref') === 'string') return rootRef()
  const union = ROOT_UNION_KEYWORDS.find((key) => Object.hasOwn(root, key))
  if (union !== undefined) {
    return violation(
      '',
      'root-union',
      `a root \`${union}\` without \`type: "object"\`; model APIs require one object root`,
      'move the alternatives under a property, or merge them into one object whose branch-specific fields are optional',
    )
  }
  if (isJsonObject(ownValue(root, 'properties'))) {
    return violation(
      '',
      'root-type-missing',
      'the root declares `properties` but not `type: "object"`',
      'add type: "object" at the root',
    )
  }
  // zod-to-json-schema for zod 4 objects emits only `{ "$schema": ... }` (server-filesystem 2025.8.21 does).
  if (keys.every((key) => METADATA_KEYWORDS.has(key) && usesKeyword(root, key))) {
    return violation(
      '',
      'root-empty',
      `the root has only ${keys.map((key) => `\`${key}\``).join(', ')}: no \`type: "object"\` and no properties`,
      "for a tool with no arguments write { type: 'object', properties: {} }",
    )
  }
  if (!keys.some((key) => usesKeyword(root, key)) && Object.values(root).every(looksLikeSchema)) {
    return violation(
      '',
      'bare-property-table',
      'this is a bare property table, not a JSON Schema: it has no `type: "object"` root, so the model API rejects every request of the session',
      WRAP_HINT,
    )
  }
  return violation(
    '',
    'root-unrecognized',
    'the root has no `type`; it is neither an object schema nor a table of property schemas',
    "declare { type: 'object', properties: { <name>: <schema> } }",
  )
}

// zod-to-json-schema with a `name` emits `{ $ref: '#/definitions/Args', definitions: { Args: {...} } }`.
function rootRef(): SchemaViolation {
  return violation(
    '/$ref',
    'root-ref',
    'the root is a `$ref`; model APIs need the object schema itself at the root',
    'inline the referenced object schema at the root',
  )
}

/** Adds to `found` what is wrong with a root that declares `type`. */
function checkTypedRoot(root: JsonObject, type: JsonValue, found: SchemaViolation[]): void {
  if (typeof ownValue(root, '$ref') === 'string') {
    found.push(rootRef())
    return
  }
  if (Array.isArray(type)) {
    found.push(
      violation(
        '/type',
        'root-type-array',
        `the root type is a list (${JSON.stringify(type)}); arguments are always one object`,
        'use type: "object" and express optional or nullable fields on the properties',
      ),
    )
    return
  }
  if (type !== 'object') {
    found.push(
      violation(
        '/type',
        'root-type-not-object',
        `the root type is ${JSON.stringify(type)}; tool arguments must be an object`,
        'wrap the value in a property: { type: "object", properties: { value: <this schema> }, required: ["value"] }',
      ),
    )
    return
  }
  for (const key of ROOT_UNION_KEYWORDS) {
    if (Object.hasOwn(root, key)) {
      found.push(
        violation(
          `/${key}`,
          'root-union',
          `\`${key}\` at the root is rejected by OpenAI-compatible routes (DeepSeek included)`,
          'move the alternatives under a property, or merge them into one object whose branch-specific fields are optional',
        ),
      )
    }
  }
  for (const key of ROOT_VALUE_KEYWORDS) {
    if (Object.hasOwn(root, key))
      found.push(
        violation(
          `/${key}`,
          'root-keyword',
          `\`${key}\` at the root constrains the whole arguments object`,
          `remove \`${key}\` from the root and constrain individual properties`,
        ),
      )
  }
}

/** Adds to `found` each name `required` lists that `properties` does not declare. */
function checkRequiredDeclared(root: JsonObject, found: SchemaViolation[]): void {
  const required = ownValue(root, 'required')
  if (!Array.isArray(required)) return
  const properties = ownValue(root, 'properties')
  const declared = isJsonObject(properties) ? properties : {}
  for (let index = 0; index < required.length; index++) {
    const name = required[index]
    if (typeof name !== 'string' || Object.hasOwn(declared, name)) continue
    found.push(
      violation(
        `/required/${index}`,
        'required-undeclared',
        `requires ${JSON.stringify(name)}, which \`properties\` does not declare`,
        `declare ${JSON.stringify(name)} under \`properties\`, or remove it from \`required\``,
      ),
    )
  }
}

function checkSnapshot(root: JsonValue, meter: WorkMeter | undefined): SchemaViolation[] {
  if (!isJsonObject(root)) {
    return [
      violation(
        '',
        'root-not-object',
        `parameters are ${describeRoot(root)}, not a JSON Schema object`,
        "declare { type: 'object', properties: { ... } }",
      ),
    ]
  }
  const type = ownValue(root, 'type')
  if (type !== undefined) {
    // Nearly every schema is clean: the shape check's own (empty) list is returned, and the root's problems are
    // put in front of it only when there are any.
    const shape = checkSchemaShape(root, root, [], meter)
    const found: SchemaViolation[] = []
    checkTypedRoot(root, type, found)
    checkRequiredDeclared(root, found)
    if (found.length === 0) return shape
    for (const problem of shape) found.push(problem)
    return found
  }
  const untyped = classifyUntypedRoot(root)
  if (untyped.rule !== 'bare-property-table') return [untyped, ...checkSchemaShape(root, root, [], meter)]
  // Check each entry as the property schema it was meant to be, so one report lists every mistake in the table.
  return [
    untyped,
    ...Object.entries(root).flatMap(([name, schema]) => checkSchemaShape(schema, root, [name], meter)),
  ]
}

function checkBeforeSnapshot(parameters: unknown): SchemaViolation | undefined {
  if (parameters === undefined) {
    return violation(
      '',
      'parameters-missing',
      'the tool declares no `parameters`',
      "declare parameters; for a tool with no arguments: { type: 'object', properties: {} }",
    )
  }
  if (typeof parameters !== 'string') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(parameters)
  } catch {
    return violation(
      '',
      'root-not-object',
      'parameters are a string, not a JSON Schema object',
      "declare { type: 'object', properties: { ... } }",
    )
  }
  return violation(
    '',
    'parameters-json-text',
    `parameters are JSON text${typeof parsed === 'object' && parsed !== null ? ' of an object' : ''}, not the object itself`,
    'pass the object: JSON.parse the text once when the plugin loads, or write an object literal',
  )
}

/**
 * Checks `parameters` and detaches them in the same pass: the snapshot walk copies while it verifies, and every later
 * check reads the copy. So what was checked is exactly what the caller gets back to project and validate, whatever
 * the plugin does to its own object afterwards (mutations, getters added later, a swapped-in Proxy).
 */
export function checkToolParameters(
  parameters: unknown,
  limits: SizeLimits = DEFAULT_LIMITS,
  meter?: WorkMeter,
): RootContractResult {
  const early = checkBeforeSnapshot(parameters)
  if (early !== undefined) return { violations: [early], snapshot: undefined }
  const snapshot = snapshotJson(parameters, limits, meter)
  if (!snapshot.ok) return { violations: snapshot.violations, snapshot: undefined }
  return { violations: checkSnapshot(snapshot.value, meter), snapshot: snapshot.value }
}
