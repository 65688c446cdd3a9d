import type { SchemaViolation } from '../check/violation.ts'
import { toPointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import type { DefinitionMap } from './definitions.ts'
import { meetsName } from './names.ts'
import { admitsNull } from './nullable.ts'
import { type ProfileRules, profileRules } from './profiles.ts'
import { REGEX_FEATURE_TEXT, refusedFeature } from './regex-features.ts'
import { exceedsRepetition, lengthBesideGrammar } from './repetition.ts'
import type { ProfileId } from './types.ts'
import { isVocabulary, METADATA, STRUCTURAL } from './vocabulary.ts'

/**
 * The written contract of a route, as a check: every wire schema `projectParameters` produces for a profile passes
 * it, and a declared schema that already passes it is sent unchanged.
 */
type Path = readonly (string | number)[]

interface Check {
  readonly rules: ProfileRules
  readonly violations: SchemaViolation[]
}

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples'])
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function fail(check: Check, path: Path, rule: 'profile-keyword' | 'profile-shape', message: string): void {
  const hint = `project it with projectParameters(schema, '${check.rules.id}')`
  check.violations.push({ pointer: toPointer(path), rule, message: `${check.rules.id}: ${message}`, hint })
}

function typesOf(node: JsonObject): string[] {
  if (typeof node.type === 'string') return [node.type]
  return Array.isArray(node.type) ? (node.type as string[]) : []
}

function checkKeywords(check: Check, node: JsonObject, path: Path): void {
  const { rules } = check
  for (const keyword of Object.keys(node)) {
    if (keyword === '$ref') checkRef(check, node, path)
    else if (rules.refs.maps.has(keyword as DefinitionMap)) {
      if (path.length === 0 && rules.refs.place === 'root-property')
        fail(
          check,
          [keyword],
          'profile-shape',
          'definitions at the root are not sent (they go in a root property)',
        )
    } else if (METADATA.has(keyword))
      fail(check, [...path, keyword], 'profile-keyword', 'metadata is not sent')
    else if (keyword === 'nullable' && rules.nullType === 'nullable') continue
    else if (!isVocabulary(keyword))
      fail(check, [...path, keyword], 'profile-keyword', `\`${keyword}\` is not JSON Schema vocabulary`)
    else if ((!STRUCTURAL.has(keyword) || keyword === 'allOf') && !rules.keeps.has(keyword)) {
      fail(check, [...path, keyword], 'profile-keyword', `\`${keyword}\` is not accepted`)
    } else if (exceedsRepetition(rules, keyword, node[keyword]!))
      fail(
        check,
        [...path, keyword],
        'profile-keyword',
        `\`${keyword}\` above ${rules.repetitionLimit} (the grammar compiler refuses the repetition)`,
      )
  }
}

/** A `$ref` the route takes: into a definition map it reads, with only the siblings it allows (`RefRules`). */
function checkRef(check: Check, node: JsonObject, path: Path): void {
  const { refs, keeps } = check.rules
  const at = [...path, '$ref']
  const ref = node.$ref
  const form = typeof ref === 'string' ? KEPT_REF.exec(ref) : null
  if (refs.maps.size === 0) fail(check, at, 'profile-keyword', 'references are inlined before sending')
  else if (form === null || !refs.maps.has(form[1] as DefinitionMap))
    fail(
      check,
      at,
      'profile-keyword',
      `a reference outside ${[...refs.maps].map((m) => `#/${m}/`).join(' or ')}`,
    )
  else {
    const besides = Object.keys(node).filter(
      (key) =>
        key !== '$ref' && !(refs.siblings.has(key) && keeps.has(key)) && !refs.maps.has(key as DefinitionMap),
    )
    if (besides.length > 0) fail(check, at, 'profile-shape', `a reference beside ${besides.join(', ')}`)
  }
}

const KEPT_REF = /^#(?:\/properties\/[^/]+)?\/(\$defs|definitions)\/[^/]+$/

function checkTypes(check: Check, node: JsonObject, path: Path, constraint: boolean): void {
  const { rules } = check
  const types = typesOf(node)
  const union = Array.isArray(node.anyOf) || Array.isArray(node.oneOf)
  // A reference takes its definition's type, which is checked where the definition is.
  if (typeof node.$ref === 'string' && rules.refs.maps.size > 0) return
  if (types.length === 0 && !union && !constraint) {
    const annotationOnly = Object.keys(node).every((key) => ANNOTATIONS.has(key))
    if (rules.anyJson === 'json-text' || !annotationOnly)
      fail(check, path, 'profile-shape', 'a slot without a type')
  }
  if (Array.isArray(node.type) && rules.typeLists !== 'keep')
    fail(check, [...path, 'type'], 'profile-shape', 'a type list')
  if (rules.nullType === 'nullable' && types.includes('null'))
    fail(check, [...path, 'type'], 'profile-shape', '`null` as a type (use nullable)')
  if (Array.isArray(node.oneOf) && rules.unions === 'any-of')
    fail(check, [...path, 'oneOf'], 'profile-keyword', '`oneOf` (only anyOf is understood)')
  if (Array.isArray(node.anyOf) && rules.unions === 'one-of')
    fail(check, [...path, 'anyOf'], 'profile-keyword', '`anyOf` (only oneOf is understood)')
  if (
    union &&
    !rules.typeBesideUnion &&
    Object.keys(node).some(
      (key) => !ANNOTATIONS.has(key) && key !== 'anyOf' && key !== 'oneOf' && key !== 'nullable',
    )
  ) {
    fail(check, path, 'profile-shape', 'keywords beside anyOf/oneOf')
  }
  if (rules.unions === 'one-of' && Array.isArray(node.oneOf) && node.oneOf.length < 2)
    fail(check, [...path, 'oneOf'], 'profile-shape', 'oneOf needs two or more branches')
}

function checkPlacement(check: Check, node: JsonObject, path: Path): void {
  if (check.rules.id !== 'dsh-subset') return
  const types = typesOf(node)
  const only = (keyword: string, allowed: (type: string) => boolean, what: string) => {
    if (Object.hasOwn(node, keyword) && !(types.length === 1 && allowed(types[0]!)))
      fail(check, [...path, keyword], 'profile-shape', `\`${keyword}\` only on ${what}`)
  }
  for (const keyword of ['properties', 'required', 'additionalProperties'])
    only(keyword, (t) => t === 'object', 'type "object"')
  only('items', (t) => t === 'array', 'type "array"')
  for (const keyword of ['enum', 'const']) only(keyword, (t) => SCALARS.has(t), 'scalar types')
}

function checkValues(check: Check, node: JsonObject, path: Path): void {
  const { rules } = check
  if (rules.enumStringsOnly && Array.isArray(node.enum) && !node.enum.every((v) => typeof v === 'string')) {
    fail(check, [...path, 'enum'], 'profile-shape', 'enum values must be strings')
  }
  if (!rules.emptyEnumStrings && Array.isArray(node.enum) && node.enum.includes(''))
    fail(check, [...path, 'enum'], 'profile-shape', 'an enum value that is the empty string')
  if (lengthBesideGrammar(rules, node))
    fail(check, path, 'profile-shape', 'a length bound beside a pattern or format')
  if (rules.enumFormatNeedsEnum && node.format === 'enum' && !Array.isArray(node.enum))
    fail(check, [...path, 'format'], 'profile-keyword', 'format "enum" without an enum')
  if (rules.constAsEnum && Object.hasOwn(node, 'const'))
    fail(check, [...path, 'const'], 'profile-keyword', '`const` is not understood')
  if (typeof node.format === 'string' && rules.formats !== undefined && !rules.formats.has(node.format)) {
    fail(check, [...path, 'format'], 'profile-keyword', `format "${node.format}" is not accepted`)
  }
  const patterns = [
    ...(typeof node.pattern === 'string' ? [[['pattern'], node.pattern] as const] : []),
    ...(isJsonObject(node.patternProperties)
      ? Object.keys(node.patternProperties).map((key) => [['patternProperties', key], key] as const)
      : []),
  ]
  for (const [at, pattern] of patterns) {
    const feature = refusedFeature(pattern, rules.refusedPatterns)
    if (feature !== undefined)
      fail(
        check,
        [...path, ...at],
        'profile-keyword',
        `${REGEX_FEATURE_TEXT[feature]} in a pattern is refused`,
      )
  }
}

function checkObject(check: Check, node: JsonObject, path: Path): void {
  const { rules } = check
  if (!typesOf(node).includes('object')) return
  const names = isJsonObject(node.properties) ? Object.keys(node.properties) : []
  const required = Array.isArray(node.required) ? (node.required as string[]) : []
  if (
    Object.hasOwn(node, 'additionalProperties') &&
    !rules.keeps.has('additionalProperties') &&
    !rules.strictObjects
  ) {
    fail(
      check,
      [...path, 'additionalProperties'],
      'profile-keyword',
      '`additionalProperties` is not accepted',
    )
  }
  if (isJsonObject(node.additionalProperties) && !rules.schemaValuedAdditional) {
    fail(check, [...path, 'additionalProperties'], 'profile-shape', 'a schema-valued additionalProperties')
  }
  const keys = rules.propertyKeys
  if (keys !== undefined)
    for (const name of names)
      if (!meetsName(name, keys))
        fail(check, [...path, 'properties', name], 'profile-shape', `a property key outside ${keys.text}`)
  if (rules.objectsNeedProperties && !isJsonObject(node.properties))
    fail(check, path, 'profile-shape', 'an object without properties')
  if (rules.requiredDeclaredOnly && required.some((name) => !names.includes(name)))
    fail(check, [...path, 'required'], 'profile-shape', 'required names an undeclared property')
  if (rules.strictObjects) {
    if (node.additionalProperties !== false)
      fail(check, path, 'profile-shape', 'an object that is not closed (additionalProperties: false)')
    if (!isJsonObject(node.properties)) fail(check, path, 'profile-shape', 'an object without properties')
    if (!Array.isArray(node.required))
      fail(check, path, 'profile-shape', 'an object without a required array')
    if (names.some((name) => !required.includes(name)))
      fail(check, [...path, 'required'], 'profile-shape', 'an object that does not require every property')
  }
  if ((rules.nullableOptionals || rules.strictObjects) && isJsonObject(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties)) {
      const optional = rules.strictObjects ? false : !required.includes(name)
      if (optional && !admitsNull(schema))
        fail(
          check,
          [...path, 'properties', name],
          'profile-shape',
          'an optional field that does not admit null',
        )
    }
  }
}

function checkArray(check: Check, node: JsonObject, path: Path): void {
  const { rules } = check
  if (Array.isArray(node.items) && rules.tuples !== 'items-array')
    fail(check, [...path, 'items'], 'profile-shape', 'a tuple written as an items array')
  if (Object.hasOwn(node, 'prefixItems') && rules.tuples !== 'prefix-items')
    fail(check, [...path, 'prefixItems'], 'profile-keyword', '`prefixItems` is not understood')
  if (
    (rules.typedEverywhere || rules.arraysNeedItems) &&
    typesOf(node).includes('array') &&
    node.items === undefined &&
    node.prefixItems === undefined
  ) {
    fail(check, path, 'profile-shape', 'an array without items')
  }
}

/** The value slots below a node: the positions projection rewrites (constraint keywords are taken verbatim). */
function slots(node: JsonObject, rules: ProfileRules): [Path, JsonValue][] {
  const found: [Path, JsonValue][] = []
  for (const map of rules.refs.maps) {
    const entries = node[map]
    if (isJsonObject(entries))
      for (const [name, schema] of Object.entries(entries)) found.push([[map, name], schema])
  }
  if (isJsonObject(node.properties))
    for (const [name, schema] of Object.entries(node.properties)) found.push([['properties', name], schema])
  if (isJsonObject(node.additionalProperties))
    found.push([['additionalProperties'], node.additionalProperties])
  for (const keyword of ['items', 'prefixItems', 'anyOf', 'oneOf']) {
    const value = node[keyword]
    if (Array.isArray(value)) {
      for (const [i, schema] of value.entries()) found.push([[keyword, i], schema])
    } else if (keyword === 'items' && value !== undefined) found.push([['items'], value])
  }
  if (node.additionalItems !== undefined) found.push([['additionalItems'], node.additionalItems])
  return found
}

/**
 * Branches without a type of their own beside a typed node narrow that node (`{ type: "string", anyOf: [{ minLength:
 * 1 }, ...] }`): they are constraints, not value slots, on routes that take both union keywords.
 */
function constraintUnion(check: Check, node: JsonObject): boolean {
  if (check.rules.unions !== 'any-of-and-one-of') return false
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
  if (branches === undefined) return false
  const siblings = Object.keys(node).some(
    (key) => !ANNOTATIONS.has(key) && key !== 'anyOf' && key !== 'oneOf',
  )
  // The same test projection applies before it keeps such a union verbatim (`isFlatConstraint` in project.ts).
  return (
    siblings &&
    branches.every(
      (b) =>
        isJsonObject(b) &&
        Object.entries(b).every(
          ([keyword, value]) =>
            (check.rules.keeps.has(keyword) || keyword === 'required') &&
            !exceedsRepetition(check.rules, keyword, value) &&
            keyword !== 'additionalItems' &&
            !(keyword === 'additionalProperties' && isJsonObject(value)),
        ),
    )
  )
}

interface PendingSlot {
  readonly node: JsonValue
  readonly path: Path
  readonly constraint: boolean
}

/** Every slot once, on an explicit stack: a schema checked here may nest deeper than the call stack. */
function checkNodes(check: Check, root: JsonObject): void {
  const pending: PendingSlot[] = [{ node: root, path: [], constraint: false }]
  while (pending.length > 0) {
    const { node, path, constraint } = pending.pop()!
    if (!isJsonObject(node)) {
      if (!check.rules.booleanSchemas) fail(check, path, 'profile-shape', 'a boolean schema')
      else if (node === true && check.rules.anyJson === 'json-text')
        fail(check, path, 'profile-shape', 'a slot without a type (`true`)')
      continue
    }
    checkKeywords(check, node, path)
    checkTypes(check, node, path, constraint)
    checkPlacement(check, node, path)
    checkValues(check, node, path)
    checkObject(check, node, path)
    checkArray(check, node, path)
    const constraints = constraintUnion(check, node)
    const below = slots(node, check.rules).map(([relative, schema]) => ({
      node: schema,
      path: [...path, ...relative],
      constraint: constraints && (relative[0] === 'anyOf' || relative[0] === 'oneOf'),
    }))
    // Reversed, so violations come out in document order.
    for (let i = below.length - 1; i >= 0; i--) pending.push(below[i]!)
  }
}

export function checkProfileContract(schema: JsonObject, profile: ProfileId): SchemaViolation[] {
  const check: Check = { rules: profileRules(profile), violations: [] }
  if (schema.type !== 'object') fail(check, [], 'profile-shape', 'the root must be type "object"')
  for (const keyword of ['if', 'then', 'else'])
    if (Object.hasOwn(schema, keyword))
      fail(
        check,
        [keyword],
        'profile-shape',
        `\`${keyword}\` at the root (routes take one plain object root)`,
      )
  checkNodes(check, schema)
  return check.violations
}
