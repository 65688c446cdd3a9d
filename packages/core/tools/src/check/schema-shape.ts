import { toPointer } from '../json/json-pointer.ts'
import {
  inheritsEnumerableKeys,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonText,
  ownValue,
} from '../json/json-value.ts'
import { reverseFrom } from '../json/stack.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import {
  ANCHOR_NAMES,
  type Dialect,
  dialectOf,
  JSON_TYPES,
  KEYWORD_SHAPES,
  type KeywordShape,
  TYPE_SUGGESTIONS,
} from '../schema/keywords.ts'
import { type LocalRefs, localRefs, resolveLocalRef } from '../schema/local-refs.ts'
import { subschemasAt } from '../schema/subschemas.ts'
import type { SchemaRule, SchemaViolation } from './violation.ts'

/**
 * Checks that every keyword of the vocabulary holds a value of the right shape, at every depth, so that a schema this
 * accepts is a valid JSON Schema (draft-07 or 2020-12) and every local `$ref` resolves. Reads only plain JSON (a
 * snapshot), so nothing here can throw on hostile input.
 */
type Path = readonly (string | number)[]

/**
 * Where a keyword sits, as a link to its parent: extending a path costs O(1), so a deep schema is not quadratic in
 * its depth. Turned into a JSON pointer only when a violation is reported.
 */
interface PathLink {
  readonly parent: PathLink | undefined
  readonly key: string | number
}

function at(link: PathLink | undefined, ...keys: readonly (string | number)[]): PathLink | undefined {
  let extended = link
  for (const key of keys) extended = { parent: extended, key }
  return extended
}

/** The link of `key` under `parent`, made only where a violation is reported. */
function here(parent: PathLink | undefined, key: string | number): PathLink {
  return { parent, key }
}

function linkOf(path: Path): PathLink | undefined {
  return at(undefined, ...path)
}

function pointerOf(link: PathLink | undefined): string {
  const keys: (string | number)[] = []
  for (let step = link; step !== undefined; step = step.parent) keys.push(step.key)
  return toPointer(keys.reverse())
}

interface ShapeCheck {
  readonly dialect: Dialect
  readonly violations: SchemaViolation[]
  /** The document's `$ref` resolution; its anchors are collected on the first `#name` reference (one walk). */
  readonly refs: LocalRefs
  readonly meter: WorkMeter | undefined
}

function report(
  check: ShapeCheck,
  path: PathLink | undefined,
  rule: SchemaRule,
  message: string,
  hint: string,
): void {
  check.violations.push({ pointer: pointerOf(path), rule, message, hint })
}

function show(value: JsonValue): string {
  const text = jsonText(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function isCount(value: JsonValue): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/** Below this many items, comparing each pair is cheaper than building a set (and allocates nothing). */
const PAIRWISE_LIMIT = 12

function allDistinct(values: readonly unknown[]): boolean {
  if (values.length > PAIRWISE_LIMIT) return new Set(values).size === values.length
  for (let i = 1; i < values.length; i++)
    for (let j = 0; j < i; j++) if (values[i] === values[j]) return false
  return true
}

function isUniqueStringList(value: JsonValue): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && allDistinct(value)
}

function compilesAsRegex(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u')
    return true
  } catch {
    return false
  }
}

function checkSchemaValue(
  check: ShapeCheck,
  parent: PathLink | undefined,
  key: string | number,
  value: JsonValue,
): void {
  if (typeof value !== 'boolean' && !isJsonObject(value)) reportNotSchema(check, here(parent, key), value)
}

function reportNotSchema(check: ShapeCheck, path: PathLink | undefined, value: JsonValue): void {
  const hint =
    typeof value === 'string' && JSON_TYPES.has(value)
      ? `write { "type": ${JSON.stringify(value)} }`
      : 'use a schema object such as { "type": "string" }, or true for any value'
  report(check, path, 'keyword-type', `must be a schema (an object or boolean), got ${show(value)}`, hint)
}

function checkType(check: ShapeCheck, parent: PathLink | undefined, key: string, value: JsonValue): void {
  if (!Array.isArray(value)) {
    checkTypeName(check, parent, key, value)
    return
  }
  if (value.length === 0 || !isUniqueStringList(value)) {
    report(
      check,
      here(parent, key),
      'keyword-type',
      `must be a type name or a non-empty list of distinct type names, got ${show(value)}`,
      'e.g. "string" or ["string", "null"]',
    )
    return
  }
  for (const name of value) checkTypeName(check, parent, key, name)
}

function checkTypeName(check: ShapeCheck, parent: PathLink | undefined, key: string, name: JsonValue): void {
  if (typeof name === 'string' && JSON_TYPES.has(name)) return
  const suggestion = typeof name === 'string' ? TYPE_SUGGESTIONS.get(name.toLowerCase()) : undefined
  report(
    check,
    here(parent, key),
    'type-unknown',
    `${show(name)} is not a JSON Schema type`,
    suggestion ?? `use one of ${[...JSON_TYPES].join(', ')}`,
  )
}

function checkRequired(
  check: ShapeCheck,
  parent: PathLink | undefined,
  key: string,
  value: JsonValue,
  inProperty: boolean,
): void {
  if (typeof value === 'boolean' && inProperty) {
    const name = String(parent?.key)
    report(
      check,
      here(parent, key),
      'required-in-property',
      `\`required: ${value}\` inside a property is not JSON Schema`,
      `remove it here${value ? ` and list ${JSON.stringify(name)} in the enclosing object's \`required\` array` : ''}`,
    )
    return
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    report(
      check,
      here(parent, key),
      'required-not-array',
      `must be an array of property names, got ${show(value)}`,
      'e.g. "required": ["path"]',
    )
    return
  }
  if (!isUniqueStringList(value)) {
    report(
      check,
      here(parent, key),
      'required-duplicate',
      'lists a property name twice',
      'list each required name once',
    )
  }
}

function resolvesLocally(check: ShapeCheck, ref: string): boolean {
  const target = resolveLocalRef(check.refs, ref)
  return typeof target === 'boolean' || isJsonObject(target)
}

function checkRef(check: ShapeCheck, parent: PathLink | undefined, key: string, value: string): void {
  if (!value.startsWith('#')) {
    report(
      check,
      here(parent, key),
      'ref-remote',
      `${show(value)} points outside this schema; model APIs cannot fetch it`,
      'copy the referenced schema into `$defs` and point at "#/$defs/<name>"',
    )
  } else if (!resolvesLocally(check, value)) {
    report(
      check,
      here(parent, key),
      'ref-unresolved',
      `${show(value)} does not resolve to a schema in this document`,
      'point at an existing `$defs`/`definitions` entry',
    )
  }
}

/** Whether no two values are equal as JSON; strings, the usual enum, compare as they are. */
function distinctAsJson(values: readonly JsonValue[]): boolean {
  return allDistinct(
    values.every((item) => typeof item === 'string') ? values : values.map((item) => jsonText(item, true)),
  )
}

function checkEnum(check: ShapeCheck, parent: PathLink | undefined, key: string, value: JsonValue): void {
  if (!Array.isArray(value)) {
    report(
      check,
      here(parent, key),
      'keyword-type',
      `\`enum\` must be an array, got ${show(value)}`,
      'e.g. "enum": ["a", "b"]',
    )
  } else if (value.length === 0) {
    report(
      check,
      here(parent, key),
      'enum-empty',
      'an empty `enum` admits no value, so the tool can never be called',
      'list the allowed values, or remove `enum`',
    )
  } else if (check.dialect === 'draft-07' && !distinctAsJson(value)) {
    // The draft-07 meta-schema as ajv ships it (and MCP SDKs validate with ajv) requires distinct values.
    report(
      check,
      here(parent, key),
      'enum-duplicate',
      '`enum` lists the same value twice',
      'list each value once',
    )
  }
}

function checkDependencies(
  check: ShapeCheck,
  parent: PathLink | undefined,
  key: string,
  value: JsonObject,
): void {
  // Schema members are checked as subschemas; a list member must list distinct property names.
  for (const [name, member] of Object.entries(value)) {
    if (Array.isArray(member) && !isUniqueStringList(member)) {
      report(
        check,
        at(here(parent, key), name),
        'keyword-type',
        `must be a schema or a list of distinct property names, got ${show(member)}`,
        'e.g. "dependencies": { "a": ["b"] }',
      )
    }
  }
}

// A boolean in 2019-09, an anchor name in 2020-12 (which deprecates it), not a keyword in draft-07.
function checkRecursiveAnchor(
  check: ShapeCheck,
  parent: PathLink | undefined,
  key: string,
  value: JsonValue,
): void {
  if (check.dialect === '2019-09' && typeof value !== 'boolean') {
    report(
      check,
      here(parent, key),
      'keyword-type',
      `\`$recursiveAnchor\` must be true or false, got ${show(value)}`,
      'use true, or remove it',
    )
  } else if (
    check.dialect === '2020-12' &&
    (typeof value !== 'string' || !ANCHOR_NAMES['2020-12'].test(value))
  ) {
    report(
      check,
      here(parent, key),
      'keyword-type',
      `\`$recursiveAnchor\` must be an anchor name in 2020-12, got ${show(value)}`,
      'use "$dynamicAnchor" instead',
    )
  }
}

const SHAPE_EXPECTATIONS: Partial<
  Record<KeywordShape, [test: (value: JsonValue) => boolean, expected: string]>
> = {
  string: [(v) => typeof v === 'string', 'a string'],
  number: [(v) => typeof v === 'number', 'a number'],
  'positive-number': [(v) => typeof v === 'number' && v > 0, 'a number greater than 0'],
  count: [isCount, 'a non-negative integer'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  list: [Array.isArray, 'an array'],
  'schema-list': [(v) => Array.isArray(v) && v.length > 0, 'a non-empty array of schemas'],
  'schema-map': [isJsonObject, 'an object mapping names to schemas'],
  'pattern-schema-map': [isJsonObject, 'an object mapping regular expressions to schemas'],
  dependencies: [isJsonObject, 'an object mapping names to schemas or name lists'],
  'string-list-map': [
    (v) => isJsonObject(v) && Object.values(v).every(isUniqueStringList),
    'an object mapping names to lists of distinct names',
  ],
  id: [(v) => typeof v === 'string', 'a string'],
  anchor: [(v) => typeof v === 'string', 'a string'],
  'boolean-map': [
    (v) => isJsonObject(v) && Object.values(v).every((b) => typeof b === 'boolean'),
    'an object mapping vocabulary URIs to true or false',
  ],
}
// A shape is looked up by name: a key some code added to `Object.prototype` must not answer for one.
Object.setPrototypeOf(SHAPE_EXPECTATIONS, null)

function checkKeyword(
  check: ShapeCheck,
  parent: PathLink | undefined,
  keyword: string,
  shape: KeywordShape,
  value: JsonValue,
  inProperty: boolean,
): void {
  const expectation = SHAPE_EXPECTATIONS[shape]
  if (expectation !== undefined && !expectation[0](value)) {
    const hint =
      keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum'
        ? `draft-04's boolean form is gone: write "${keyword}": <the bound> instead of minimum/maximum`
        : `make it ${expectation[1]}`
    report(
      check,
      here(parent, keyword),
      'keyword-type',
      `\`${keyword}\` must be ${expectation[1]}, got ${show(value)}`,
      hint,
    )
    return
  }
  switch (shape) {
    case 'type':
      checkType(check, parent, keyword, value)
      return
    case 'required':
      checkRequired(check, parent, keyword, value, inProperty)
      return
    case 'enum':
      checkEnum(check, parent, keyword, value)
      return
    case 'regex':
      if (typeof value !== 'string')
        report(
          check,
          here(parent, keyword),
          'keyword-type',
          `\`pattern\` must be a string, got ${show(value)}`,
          'write the regular expression as a string',
        )
      else if (!compilesAsRegex(value))
        report(
          check,
          here(parent, keyword),
          'pattern-invalid',
          `${show(value)} is not a valid regular expression (ECMA-262, unicode mode)`,
          'fix the expression; DeepSeek rejects the whole request over an invalid pattern',
        )
      return
    case 'ref':
      if (typeof value !== 'string')
        report(
          check,
          here(parent, keyword),
          'keyword-type',
          `\`$ref\` must be a string, got ${show(value)}`,
          'e.g. "$ref": "#/$defs/Item"',
        )
      else checkRef(check, parent, keyword, value)
      return
    case 'dialect':
      if (typeof value !== 'string' || dialectOf(value) === undefined) {
        report(
          check,
          here(parent, keyword),
          'schema-dialect-unknown',
          `\`$schema\` ${show(value)} is not a dialect this check knows`,
          'remove `$schema`, or use draft-07, 2019-09 or 2020-12',
        )
      }
      return
    case 'schema-or-schema-list':
      if (Array.isArray(value) && (check.dialect === '2020-12' || value.length === 0)) {
        report(
          check,
          here(parent, keyword),
          'keyword-type',
          '`items` must be a single schema here',
          'use "items": <schema>, or "prefixItems": [...] for a tuple',
        )
      } else if (!Array.isArray(value)) checkSchemaValue(check, parent, keyword, value)
      return
    case 'schema':
      checkSchemaValue(check, parent, keyword, value)
      return
    case 'dependencies':
      checkDependencies(check, parent, keyword, value as JsonObject)
      return
    case 'id':
      // 2019-09 moved plain-name fragments from `$id` to `$anchor`; their meta-schemas refuse `"$id": "#name"`.
      if (check.dialect !== 'draft-07' && /#./.test(value as string)) {
        report(
          check,
          here(parent, keyword),
          'keyword-type',
          `\`$id\` ${show(value)} has a fragment, which ${check.dialect} does not allow`,
          'name the place with "$anchor" instead',
        )
      }
      return
    case 'anchor':
      if (!ANCHOR_NAMES[check.dialect].test(value as string)) {
        report(
          check,
          here(parent, keyword),
          'keyword-type',
          `\`${keyword}\` ${show(value)} is not a plain name`,
          'start with a letter and use only letters, digits, "-", "." and "_"',
        )
      }
      return
    case 'recursive-anchor':
      checkRecursiveAnchor(check, parent, keyword, value)
      return
    case 'pattern-schema-map':
      for (const pattern of Object.keys(value as JsonObject)) {
        if (!compilesAsRegex(pattern))
          report(
            check,
            at(here(parent, keyword), pattern),
            'pattern-invalid',
            `${show(pattern)} is not a valid regular expression`,
            'fix the expression',
          )
      }
      return
    default:
      return
  }
}

/** A schema still to check; it is also the path link of its own keywords, so it costs one allocation. */
interface PendingNode extends PathLink {
  readonly node: JsonValue
  readonly inProperty: boolean
}

/** One visit per schema node, on an explicit stack: nesting as deep as the size limits admit is fine. */
function checkNodes(
  check: ShapeCheck,
  root: JsonValue,
  rootPath: PathLink | undefined,
  inProperty: boolean,
): void {
  const pending: PendingNode[] = []
  // Every node is one of the snapshot's plain objects: see `inheritsEnumerableKeys`.
  const inherited = inheritsEnumerableKeys()
  let path = rootPath
  let node = root
  let underProperties = inProperty
  // Members of one list or map keyword share one link for the keyword.
  let keyword: string | undefined
  let keywordLink: PathLink | undefined
  // One closure per walk (not per node) collects each node's nested schemas onto the stack.
  const visit = (schema: JsonValue, holder: string, member: string | number | undefined): void => {
    const inProperties = holder === 'properties'
    if (member === undefined) {
      // The keyword's own value was checked as the keyword.
      if (isJsonObject(schema))
        pending.push({ parent: path, key: holder, node: schema, inProperty: inProperties })
      return
    }
    if (keyword !== holder) {
      keyword = holder
      keywordLink = { parent: path, key: holder }
    }
    if (isJsonObject(schema))
      pending.push({ parent: keywordLink, key: member, node: schema, inProperty: inProperties })
    else checkSchemaValue(check, keywordLink, member, schema)
  }
  while (true) {
    check.meter?.count('check-node')
    if (!isJsonObject(node)) reportNotSchema(check, path, node)
    else {
      keyword = undefined
      const first = pending.length
      for (const name in node) {
        if (inherited && !Object.hasOwn(node, name)) continue
        const shape = KEYWORD_SHAPES.get(name)
        if (shape === undefined) continue
        const value = node[name]!
        checkKeyword(check, path, name, shape, value, underProperties)
        subschemasAt(name, shape, value, visit)
      }
      // Reversed, so violations come out in document order, as a recursive walk would report them.
      reverseFrom(pending, first)
    }
    const next = pending.pop()
    if (next === undefined) return
    path = next
    node = next.node
    underProperties = next.inProperty
  }
}

/**
 * Violations of keyword shape anywhere in `schema`. `basePath` prefixes every pointer, for schemas checked in place
 * inside a larger document (a bare property table's entries, say).
 */
export function checkSchemaShape(
  schema: JsonValue,
  document: JsonValue = schema,
  basePath: Path = [],
  meter?: WorkMeter,
): SchemaViolation[] {
  const declared = isJsonObject(document) ? ownValue(document, '$schema') : undefined
  const dialect = (typeof declared === 'string' && dialectOf(declared)) || 'draft-07'
  const check: ShapeCheck = { dialect, violations: [], refs: localRefs(document), meter }
  checkNodes(check, schema, linkOf(basePath), basePath.length > 0)
  return check.violations
}
