import { toPointer } from '../json/json-pointer.ts'
import { containsKey, defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { type LocalRefs, localRefs, resolveLocalRef } from '../schema/local-refs.ts'
import { subschemasOf } from '../schema/subschemas.ts'
import { InlineBudgetExceeded, inlineAllowance, jsonSizes, sizeOf } from './byte-budget.ts'
import { sameJson } from './canonical.ts'
import {
  type DefinitionMap,
  definitionHost,
  isDefinitionMap,
  type KeptRef,
  keptRef,
  wireRef,
} from './definitions.ts'
import { meetsName, type NameRule, type Renames, renameAll } from './names.ts'
import { admitsNull, widenToNullable } from './nullable.ts'
import type { ProfileRules } from './profiles.ts'
import { REGEX_FEATURE_TEXT, refusedFeature } from './regex-features.ts'
import { exceedsRepetition, spillLengthsBesideGrammar } from './repetition.ts'
import { joinDescription, spillText } from './spill.ts'
import type { Decoder, ProjectionChange } from './types.ts'
import {
  admitsType,
  isVocabulary,
  type JsonType,
  jsonTypeOf,
  METADATA,
  STRUCTURAL,
  TYPE_OF_KEYWORD,
} from './vocabulary.ts'

/**
 * Declared schema → wire schema for one profile, with the decoder that reads wire-shaped arguments back. Every
 * rewrite keeps the meaning or widens the wire (the declared schema still validates locally); none narrows what a
 * valid call can send, except closing objects on strict routes, which is what strict mode is.
 */
export interface Walk {
  readonly rules: ProfileRules
  readonly document: JsonObject
  readonly changes: ProjectionChange[]
  /** The `$ref`s being inlined on the current path (a set: a reference already on it is a recursion). */
  readonly expanding: Set<string>
  /** The document's anchors and `$ref` resolution (`refs.ts`). */
  readonly refs: LocalRefs
  /** `declaredAdmitsNull` per declared node, so shared `$ref` targets are judged once per projection. */
  readonly admitsNull: WeakMap<object, boolean>
  /** `stringReading` per wire node and decoder: a kept definition used by many branches is read once. */
  readonly stringReadings: WeakMap<object, WeakMap<Decoder, StringReading>>
  readonly meter: WorkMeter | undefined
  budget: number
  /** Schema levels entered now, and the most allowed (see `ProjectionOptions.maxDepth`). */
  depth: number
  readonly maxDepth: number
  /** The document's key rename table, built on first need (`null`: built, and the route takes every key). */
  keyTable: Renames | null | undefined
  /** Definitions kept on the wire, by `KeptRef.id`, in the order first used. */
  readonly definitions: Map<string, Definition>
  /** The same, by the wire spelling of each reference to them. */
  readonly wireRefs: Map<string, Definition>
  /**
   * Definitions whose recursive uses are sent as JSON text: a use inside the definition's own projection is taken to
   * need no decoding, and where that proved wrong (`misjudged`), the next pass of `projectWithin` unrolls it.
   */
  readonly unrolled: ReadonlySet<string> | 'all'
  readonly misjudged: Set<string>
  /** Where a `root-property` route's definitions go (the declared name; `null`: no root property can hold them). */
  host: string | null | undefined
  /** The definition maps sent whole, even empty (`projectUnusedDefinitions`). */
  readonly sentMaps: Set<DefinitionMap>
  /** What inlining has added so far (`byte-budget.ts`), from the first inlined reference on. */
  inlining: Inlining | undefined
}

interface Definition {
  readonly kept: KeptRef
  projected: Projected | undefined
  usedRecursively: boolean
}

interface Inlining {
  readonly sizes: WeakMap<object, number>
  readonly declaredBytes: number
  readonly allowance: number
  added: number
}

export interface Projected {
  readonly wire: JsonValue
  readonly decoder: Decoder
}

/** The decoder of a slot sent as declared: arguments for it are read as they come. */
export const IDENTITY: Decoder = { kind: 'identity' }
const JSON_TEXT: Decoder = { kind: 'json-text' }
const ANY_JSON_NOTE = 'Send this value as JSON text; it is parsed before the tool runs.'
const ANNOTATIONS = ['description', 'title', 'default', 'examples'] as const
const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function note(
  walk: Walk,
  pointer: string,
  action: ProjectionChange['action'],
  detail: string,
  keyword?: string,
): void {
  walk.changes.push({ pointer, action, detail, keyword })
}

function child(pointer: string, ...segments: readonly (string | number)[]): string {
  return pointer + toPointer(segments)
}

function withDescription(node: JsonObject, description: string | undefined): JsonObject {
  if (description === undefined) delete node.description
  else node.description = description
  return node
}

/** A slot that admits any JSON value: JSON text on routes where untyped slots misbehave, else left untyped. */
function anyJsonSlot(walk: Walk, source: JsonObject, pointer: string, reason: string): Projected {
  const description = typeof source.description === 'string' ? source.description : undefined
  if (walk.rules.anyJson === 'untyped') {
    const slot: JsonObject = {}
    for (const keyword of ANNOTATIONS) {
      if (Object.hasOwn(source, keyword) && walk.rules.keeps.has(keyword))
        defineOwn(slot, keyword, source[keyword])
    }
    return { wire: slot, decoder: IDENTITY }
  }
  note(walk, pointer, 'encoded-json', reason)
  return {
    wire: withDescription({ type: 'string' }, joinDescription(description, ANY_JSON_NOTE)),
    decoder: JSON_TEXT,
  }
}

function resolveRef(walk: Walk, ref: string): JsonValue | undefined {
  return resolveLocalRef(walk.refs, ref)
}

function projectRef(walk: Walk, node: JsonObject, pointer: string): Projected {
  const projected = projectRefTarget(walk, node, pointer)
  if (pointer !== '' || (isJsonObject(projected.wire) && projected.wire.type === 'object')) return projected
  // The root stays an object on the wire whatever its `$ref` names (a scalar, `false`, a cycle, nothing): the
  // siblings carry the root contract's `type: "object"`, and the reference is still enforced locally.
  const { $ref: ref, ...siblings } = node
  note(walk, pointer, 'spilled', `root reference ${String(ref)} enforced locally`, '$ref')
  return projectSchema(walk, siblings, pointer)
}

function projectRefTarget(walk: Walk, node: JsonObject, pointer: string): Projected {
  const ref = node.$ref as string
  const { $ref: _ref, ...siblings } = node
  const kept = pointer === '' ? undefined : keptRef(walk.document, node, walk.rules.refs, walk.rules.keeps)
  const reference = kept === undefined ? undefined : projectKeptRef(walk, node, kept, pointer)
  if (reference !== undefined) return reference
  if (walk.expanding.has(ref)) {
    return anyJsonSlot(walk, siblings, pointer, `recursive reference ${ref} sent as JSON text`)
  }
  const target = resolveRef(walk, ref)
  if (target === node) {
    // A node that refers to itself (`$ref: "#"` at the root) adds nothing its siblings do not say; projecting it as
    // a recursive slot would turn the root into JSON text.
    note(walk, pointer, 'dropped', `self-reference ${ref} adds no constraint`, '$ref')
    return projectSchema(walk, siblings, pointer)
  }
  if (target === undefined)
    return anyJsonSlot(walk, siblings, pointer, `unresolvable reference ${ref} sent as JSON text`)
  note(walk, pointer, 'inlined-ref', `inlined ${ref}`, '$ref')
  chargeInlining(walk, target)
  // Sibling annotations describe this use of the target, so they win over the target's own.
  const merged: JsonValue =
    target === true ? siblings : isJsonObject(target) ? { ...target, ...siblings } : target
  walk.expanding.add(ref)
  try {
    return projectSchema(walk, merged, pointer)
  } finally {
    walk.expanding.delete(ref)
  }
}

/**
 * A reference the route takes (`RefRules`): sent as written (re-pointed where the definitions move, `root-property`),
 * its definition projected once for the whole document and read back with that definition's decoder. `undefined`
 * when it must be inlined after all: no root property can hold a `root-property` route's definitions, or two maps'
 * entries would meet under one wire name.
 */
function projectKeptRef(walk: Walk, node: JsonObject, kept: KeptRef, pointer: string): Projected | undefined {
  const host = definitionsHost(walk)
  if (host === null) return undefined
  let definition = walk.definitions.get(kept.id)
  if (definition !== undefined && definition.kept.target !== kept.target) return undefined
  const ref = wireRef(kept, host === undefined ? undefined : wireKey(walk, host))
  if (ref !== node.$ref) note(walk, pointer, 'converted', `reference written as ${ref}`, '$ref')
  const wire: JsonObject = { $ref: ref }
  for (const [key, value] of Object.entries(node))
    if (key !== '$ref' && !isDefinitionMap(key)) defineOwn(wire, key, value)
  if (definition === undefined) {
    definition = { kept, projected: undefined, usedRecursively: false }
    walk.definitions.set(kept.id, definition)
    walk.wireRefs.set(ref, definition)
    const projected = projectSchema(walk, kept.target, kept.pointer)
    definition.projected = projected
    if (definition.usedRecursively && projected.decoder.kind !== 'identity') walk.misjudged.add(kept.id)
    return { wire, decoder: projected.decoder }
  }
  walk.wireRefs.set(ref, definition)
  if (definition.projected !== undefined) return { wire, decoder: definition.projected.decoder }
  // A use inside the definition's own projection: a reference cycle.
  const { $ref: _ref, ...siblings } = node
  if (!walk.rules.refs.recursive || walk.unrolled === 'all' || walk.unrolled.has(kept.id))
    return anyJsonSlot(walk, siblings, pointer, `recursive reference ${String(node.$ref)} sent as JSON text`)
  definition.usedRecursively = true
  return { wire, decoder: IDENTITY }
}

/** The declared root property a `root-property` route's definitions go into; `undefined` on other routes. */
function definitionsHost(walk: Walk): string | null | undefined {
  if (walk.rules.refs.place !== 'root-property') return undefined
  walk.host ??= definitionHost(walk.document) ?? null
  return walk.host
}

/** The wire name of a declared property key (renamed where the route refuses it). */
function wireKey(walk: Walk, name: string): string {
  const rule = walk.rules.propertyKeys
  if (rule === undefined) return name
  walk.keyTable ??= documentKeyRenames(walk.document, rule) ?? null
  return walk.keyTable?.toWire.get(name) ?? name
}

/** Counts what inlining `target` adds; past the budget the projection stops at once (`InlineBudgetExceeded`). */
function chargeInlining(walk: Walk, target: JsonValue): void {
  if (walk.inlining === undefined) {
    const sizes = jsonSizes(walk.document)
    const declaredBytes = sizeOf(sizes, walk.document)
    walk.inlining = { sizes, declaredBytes, allowance: inlineAllowance(declaredBytes), added: 0 }
  }
  const inlining = walk.inlining
  inlining.added += sizeOf(inlining.sizes, target)
  if (inlining.added > inlining.allowance)
    throw new InlineBudgetExceeded(inlining.declaredBytes, inlining.allowance)
}

/** A wire node with a kept `$ref` read as the definition it names (as far as it is projected yet). */
function throughRef(walk: Walk, wire: JsonValue): JsonValue | undefined {
  let at: JsonValue | undefined = wire
  // A definition that is only a reference to another: bounded by the number of definitions.
  for (let hops = 0; hops <= walk.definitions.size && isJsonObject(at) && typeof at.$ref === 'string'; hops++)
    at = walk.wireRefs.get(at.$ref)?.projected?.wire
  return isJsonObject(at) && typeof at.$ref === 'string' ? undefined : at
}

/**
 * The entries no reference used, projected too when nothing was inlined: an unchanged schema then stays the very
 * declared one. (Where a reference was inlined, the wire is rebuilt anyway and carries only what it references.)
 */
export function projectUnusedDefinitions(walk: Walk): void {
  const host = definitionsHost(walk)
  if (walk.inlining !== undefined || host === null) return
  const properties = walk.document.properties
  // The host property holds them where an earlier projection for the route put them (projecting is idempotent).
  const holders: [string, JsonValue | undefined][] = [['', walk.document]]
  if (host !== undefined && isJsonObject(properties))
    holders.push([toPointer(['properties', host]), properties[host]])
  for (const [at, holder] of holders)
    for (const map of walk.rules.refs.maps) {
      const entries = isJsonObject(holder) ? holder[map] : undefined
      if (!isJsonObject(entries)) continue
      walk.sentMaps.add(map)
      for (const key of Object.keys(entries)) {
        const ref = `#${at}${toPointer([map, key])}`
        const kept = keptRef(walk.document, { $ref: ref }, walk.rules.refs, walk.rules.keeps)
        if (kept === undefined || walk.definitions.has(kept.id)) continue
        walk.definitions.set(kept.id, {
          kept,
          projected: projectSchema(walk, kept.target, kept.pointer),
          usedRecursively: false,
        })
      }
    }
}

/** The wire's definitions where the route reads them: the root, or inside the host property. */
export function attachDefinitions(walk: Walk, wire: JsonObject): JsonObject {
  const maps = new Map<string, JsonObject>([...walk.sentMaps].map((map) => [map, {}]))
  for (const { kept, projected } of walk.definitions.values()) {
    if (projected === undefined) continue
    const entries = maps.get(kept.map) ?? {}
    maps.set(kept.map, entries)
    defineOwn(entries, kept.key, projected.wire)
  }
  if (maps.size === 0) return wire
  const host = definitionsHost(walk)
  const properties = wire.properties
  const at = host == null ? undefined : wireKey(walk, host)
  if (at !== undefined && isJsonObject(properties) && isJsonObject(properties[at])) {
    const holder: JsonObject = { ...(properties[at] as JsonObject) }
    for (const [map, entries] of maps) holder[map] = entries
    const moved: JsonObject = { ...properties }
    defineOwn(moved, at, holder)
    return { ...wire, properties: moved }
  }
  const rooted: JsonObject = { ...wire }
  for (const [map, entries] of maps) rooted[map] = entries
  return rooted
}

/** The JSON types a node's own keywords pin down, or `undefined` when it names none (any JSON, or a pure union). */
function declaredTypes(node: JsonObject): JsonType[] | undefined {
  if (typeof node.type === 'string') return [node.type as JsonType]
  if (Array.isArray(node.type)) return node.type as JsonType[]
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map(jsonTypeOf))]
  if (Object.hasOwn(node, 'const')) return [jsonTypeOf(node.const)]
  const inferred = new Set<JsonType>()
  for (const keyword of Object.keys(node)) {
    const type = TYPE_OF_KEYWORD.get(keyword)
    if (type !== undefined) inferred.add(type)
  }
  return inferred.size > 0 ? [...inferred] : undefined
}

/** The JSON types a (wire or declared) schema node takes by its own keywords; `undefined` when any or a union. */
function wireTypes(wire: JsonValue): JsonType[] | undefined {
  if (wire === false) return []
  return isJsonObject(wire) && !Array.isArray(wire.anyOf) && !Array.isArray(wire.oneOf)
    ? declaredTypes(wire)
    : undefined
}

function simplifyTypes(types: readonly JsonType[]): JsonType[] {
  const set = new Set(types)
  return [...set].filter((type) => !(type === 'integer' && set.has('number')))
}

/** One branch per type, each taking the keywords that constrain that type; annotations stay on the union. */
function splitByType(node: JsonObject, types: readonly JsonType[]): JsonObject[] {
  return types.map((type) => {
    const branch: JsonObject = { type }
    for (const [keyword, value] of Object.entries(node)) {
      const owner = TYPE_OF_KEYWORD.get(keyword)
      if (owner !== undefined && admitsType(new Set([owner]), type)) defineOwn(branch, keyword, value)
    }
    if (Array.isArray(node.enum)) {
      const values = node.enum.filter((value) => admitsType(new Set([type]), jsonTypeOf(value)))
      if (values.length > 0) branch.enum = values
    }
    if (Object.hasOwn(node, 'const') && admitsType(new Set([type]), jsonTypeOf(node.const)))
      branch.const = node.const as JsonValue
    return branch
  })
}

function annotationsOf(node: JsonObject): JsonObject {
  const kept: JsonObject = {}
  for (const keyword of ANNOTATIONS) if (Object.hasOwn(node, keyword)) defineOwn(kept, keyword, node[keyword])
  return kept
}

function projectTypeList(walk: Walk, node: JsonObject, types: JsonType[], pointer: string): Projected {
  const nonNull = types.filter((type) => type !== 'null')
  const { rules } = walk
  if (rules.nullType === 'nullable' && nonNull.length === 1) {
    note(
      walk,
      pointer,
      'converted',
      `type ${JSON.stringify(types)} written as nullable ${nonNull[0]}`,
      'type',
    )
    const single = projectSchema(walk, { ...node, type: nonNull[0]! }, pointer)
    return isJsonObject(single.wire) ? { ...single, wire: { ...single.wire, nullable: true } } : single
  }
  const branchTypes = rules.nullType === 'nullable' ? nonNull : types
  const keyword = rules.typeLists === 'split-one-of' ? 'oneOf' : 'anyOf'
  note(
    walk,
    pointer,
    'converted',
    `type ${JSON.stringify(types)} written as ${keyword} of one branch per type`,
    'type',
  )
  const union: JsonObject = { ...annotationsOf(node), [keyword]: splitByType(node, branchTypes) }
  if (rules.nullType === 'nullable' && nonNull.length < types.length) union.nullable = true
  return projectSchema(walk, union, pointer)
}

/** Distinct JSON types per branch make `anyOf` and `oneOf` accept exactly the same values. */
function branchesDisjoint(branches: readonly JsonValue[]): boolean {
  const seen = new Set<JsonType>()
  for (const branch of branches) {
    const types = isJsonObject(branch) ? declaredTypes(branch) : undefined
    if (types === undefined) return false
    for (const type of types) {
      const overlapping =
        type === 'integer' || type === 'number' ? seen.has('integer') || seen.has('number') : seen.has(type)
      if (overlapping) return false
      seen.add(type)
    }
  }
  return true
}

function chooseUnionKeyword(
  walk: Walk,
  keyword: 'anyOf' | 'oneOf',
  branches: readonly JsonValue[],
  pointer: string,
): 'anyOf' | 'oneOf' | undefined {
  const { unions } = walk.rules
  if (
    unions === 'any-of-and-one-of' ||
    (unions === 'any-of' && keyword === 'anyOf') ||
    (unions === 'one-of' && keyword === 'oneOf')
  )
    return keyword
  if (keyword === 'oneOf') {
    // anyOf accepts a superset of oneOf; the declared oneOf still validates locally.
    note(walk, pointer, 'converted', 'oneOf written as anyOf (the declared oneOf is still enforced)', 'oneOf')
    return 'anyOf'
  }
  if (branchesDisjoint(branches)) {
    note(walk, pointer, 'converted', 'anyOf of disjoint types written as oneOf', 'anyOf')
    return 'oneOf'
  }
  return undefined
}

/** A union branch that projection sent wider than declared: as JSON text, or as an untyped slot. */
function widensBranch(declared: JsonValue, projected: Projected): boolean {
  if (projected.decoder.kind === 'json-text') return true
  const { wire } = projected
  if (
    !isJsonObject(wire) ||
    wire.type !== undefined ||
    Array.isArray(wire.anyOf) ||
    Array.isArray(wire.oneOf)
  )
    return false
  const declaredUntyped =
    declared === true ||
    (isJsonObject(declared) &&
      Object.keys(declared).every((key) => (ANNOTATIONS as readonly string[]).includes(key)))
  return !declaredUntyped
}

/**
 * How a slot's wire reads a string the model sends: not at all, as the string itself, as JSON text of another value,
 * or both (a union with branches of each kind).
 */
type StringReading = 'none' | 'as-is' | 'encoded' | 'both'

function joinReadings(a: StringReading, b: StringReading): StringReading {
  if (a === 'none' || a === b) return b
  if (b === 'none') return a
  return 'both'
}

/** A string value that is also JSON text: the only strings a JSON-text branch could be read as instead. */
function isJsonText(value: JsonValue): boolean {
  if (typeof value !== 'string') return false
  try {
    JSON.parse(value)
    return true
  } catch {
    return false
  }
}

function stringReading(walk: Walk, wire: JsonValue, decoder: Decoder): StringReading {
  if (decoder.kind === 'json-text') return 'encoded'
  const at = throughRef(walk, wire)
  if (at === undefined || at === true) return 'as-is'
  if (!isJsonObject(at)) return 'none'
  // Unions of references to unions reach the same definitions again and again: without the memo, 2^depth reads.
  let readings = walk.stringReadings.get(at)
  if (readings === undefined) {
    readings = new WeakMap()
    walk.stringReadings.set(at, readings)
  }
  const known = readings.get(decoder)
  if (known !== undefined) return known
  const reading = readWireStrings(walk, at, decoder)
  readings.set(decoder, reading)
  return reading
}

function readWireStrings(walk: Walk, at: JsonObject, decoder: Decoder): StringReading {
  walk.meter?.count('projection-helper')
  const branches = Array.isArray(at.anyOf) ? at.anyOf : Array.isArray(at.oneOf) ? at.oneOf : undefined
  if (branches !== undefined) {
    const decoders = decoder.kind === 'union' ? decoder.branches : undefined
    return branches.reduce<StringReading>(
      (reading, branch, i) => joinReadings(reading, stringReading(walk, branch, decoders?.[i] ?? IDENTITY)),
      'none',
    )
  }
  // A string enum whose values are no JSON text cannot be mistaken for JSON text of another branch's value.
  const listed = Array.isArray(at.enum)
    ? at.enum
    : Object.hasOwn(at, 'const')
      ? [at.const as JsonValue]
      : undefined
  if (listed !== undefined) return listed.some(isJsonText) ? 'as-is' : 'none'
  const types = wireTypes(at)
  return types === undefined || types.includes('string') ? 'as-is' : 'none'
}

/**
 * A union where one branch takes JSON text and another takes strings as they are: the wire could not say which a
 * string means (`"42"`: the string, or the number), so projection must not send it that way.
 */
function readsStringsTwoWays(walk: Walk, projected: readonly Projected[]): boolean {
  const readings = projected.map((p) => stringReading(walk, p.wire, p.decoder))
  return readings.some(
    (reading, i) =>
      (reading === 'encoded' || reading === 'both') &&
      readings.some((other, j) => j !== i && other !== 'none'),
  )
}

/** Branches without their own type next to sibling keywords narrow the sibling schema; they are not alternatives. */
function isConstraintUnion(branches: readonly JsonValue[], hasSiblings: boolean): boolean {
  return hasSiblings && branches.every((b) => isJsonObject(b) && b.type === undefined && b.$ref === undefined)
}

/**
 * A constraint branch the route takes verbatim: only keywords it keeps, and no value slots of its own (the profile
 * contract checks those as slots, and a verbatim branch would carry them unprojected).
 */
function isFlatConstraint(walk: Walk, branch: JsonValue): boolean {
  const keys = walk.rules.propertyKeys
  return (
    isJsonObject(branch) &&
    // A branch naming a key the route renames would name the declared key on the wire.
    !(
      keys !== undefined &&
      Array.isArray(branch.required) &&
      !branch.required.every((n) => meetsName(String(n), keys))
    ) &&
    Object.entries(branch).every(
      ([keyword, value]) =>
        (walk.rules.keeps.has(keyword) || keyword === 'required') &&
        // A pattern the route's engine refuses cannot go out verbatim, in a constraint branch or anywhere.
        refusedPattern(walk, keyword, value) === undefined &&
        !exceedsRepetition(walk.rules, keyword, value) &&
        keyword !== 'additionalItems' &&
        !(keyword === 'additionalProperties' && isJsonObject(value)),
    )
  )
}

/**
 * Whether a declared schema admits null, following local `$ref`s (a cycle or a dangling one counts as no). One
 * post-order pass on an explicit stack, memoized per node for the whole projection: a `$defs` chain whose levels are
 * unions of `$ref`s to the next is judged once per node, not once per path (which doubles per level).
 */
function declaredAdmitsNull(walk: Walk, schema: JsonValue): boolean {
  if (!isJsonObject(schema)) return admitsNull(schema)
  const memo = walk.admitsNull
  const known = memo.get(schema)
  if (known !== undefined) return known
  const entered = new Set<object>()
  const stack: JsonObject[] = [schema]
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!
    if (memo.has(node)) {
      stack.pop()
      continue
    }
    const { $ref: ref, anyOf, oneOf, allOf, ...rest } = node
    const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : []
    const members = Array.isArray(allOf) ? allOf : []
    const target = typeof ref === 'string' ? (resolveRef(walk, ref) ?? false) : true
    const parts = [...branches, ...members, target]
    if (!entered.has(node)) {
      entered.add(node)
      walk.meter?.count('projection-helper')
      for (const part of parts)
        if (isJsonObject(part) && !memo.has(part) && !entered.has(part)) stack.push(part)
      continue
    }
    stack.pop()
    // A part still being entered is on a cycle: it counts as no, as a `$ref` back to itself always did.
    const of = (part: JsonValue): boolean =>
      isJsonObject(part) ? (memo.get(part) ?? false) : admitsNull(part)
    const result =
      (branches.length === 0 || branches.some(of)) && members.every(of) && of(target) && admitsNull(rest)
    memo.set(node, result)
  }
  return memo.get(schema) ?? false
}

function isNullBranch(branch: JsonValue): boolean {
  return (
    isJsonObject(branch) &&
    branch.type === 'null' &&
    Object.keys(branch).every((key) => key === 'type' || (ANNOTATIONS as readonly string[]).includes(key))
  )
}

/** Routes that write `nullable: true` instead of a `null` type: a `{ type: "null" }` branch becomes that flag. */
function foldNullBranch(
  walk: Walk,
  node: JsonObject,
  keyword: 'anyOf' | 'oneOf',
  pointer: string,
): Projected | undefined {
  const branches = node[keyword] as JsonValue[]
  const others = branches.filter((branch) => !isNullBranch(branch))
  if (walk.rules.nullType !== 'nullable' || others.length === branches.length || others.length === 0)
    return undefined
  note(walk, pointer, 'converted', `a { type: "null" } branch written as nullable`, keyword)
  const rest: JsonObject = { ...node }
  delete rest[keyword]
  const folded: JsonObject =
    others.length === 1 && isJsonObject(others[0])
      ? { ...others[0], ...rest }
      : { ...rest, [keyword]: others }
  // Values sent as JSON text (Gemini's non-string enums) take null as one more value: `nullable` is not read on text.
  const values = walk.rules.enumStringsOnly ? textEncodedValues(folded, walk.rules) : undefined
  if (values !== undefined && !Array.isArray(folded.anyOf) && !Array.isArray(folded.oneOf))
    return enumAsText(walk, folded, [...values, null], pointer)
  const projected = projectSchema(walk, folded, pointer)
  return isJsonObject(projected.wire) && projected.decoder.kind !== 'json-text'
    ? {
        // `nullable` beside a `$ref` is refused (anomalyco/opencode#12295): the reference becomes one branch.
        wire:
          typeof projected.wire.$ref === 'string'
            ? { anyOf: [projected.wire], nullable: true }
            : { ...projected.wire, nullable: true },
        decoder: declaring(projected.decoder, node),
      }
    : projected
}

/** A union decoder that admits what `declared` does: the union with its `{ type: "null" }` branch folded away. */
function declaring(decoder: Decoder, declared: JsonObject): Decoder {
  return decoder.kind === 'union' ? { ...decoder, declared } : decoder
}

function projectUnion(walk: Walk, node: JsonObject, keyword: 'anyOf' | 'oneOf', pointer: string): Projected {
  const folded = foldNullBranch(walk, node, keyword, pointer)
  if (folded !== undefined) return folded
  const branches = node[keyword] as JsonValue[]
  const rest: JsonObject = { ...node }
  delete rest[keyword]
  // On routes that write `nullable: true`, that flag is part of the union (projection puts it there), not a sibling.
  const nullableFlag = walk.rules.nullType === 'nullable' && typeof rest.nullable === 'boolean'
  const hasSiblings = Object.keys(rest).some(
    (key) =>
      !(ANNOTATIONS as readonly string[]).includes(key) &&
      !METADATA.has(key) &&
      !(key === 'nullable' && nullableFlag),
  )
  if (isConstraintUnion(branches, hasSiblings)) {
    const base = projectSchema(walk, rest, pointer)
    if (!isJsonObject(base.wire) || base.decoder.kind === 'json-text') return base
    if (
      walk.rules.unions === 'any-of-and-one-of' &&
      // The siblings can write this keyword themselves (a `oneOf` beside an `anyOf` sent as `anyOf`): placing the
      // branches there would replace theirs, and the wire would lose what they say (a JSON-text branch, say).
      !Object.hasOwn(base.wire, keyword) &&
      !containsKey(branches, '$ref') &&
      branches.every((branch) => isFlatConstraint(walk, branch))
    ) {
      return { wire: { ...base.wire, [keyword]: branches }, decoder: base.decoder }
    }
    note(
      walk,
      child(pointer, keyword),
      'spilled',
      `${keyword} constraint described and enforced locally`,
      keyword,
    )
    const text = spillText(new Map([[keyword, branches]]))
    return {
      wire: withDescription(
        { ...base.wire },
        joinDescription(base.wire.description as string | undefined, text),
      ),
      decoder: base.decoder,
    }
  }
  const wireKeyword = chooseUnionKeyword(walk, keyword, branches, pointer)
  if (
    wireKeyword === undefined ||
    (hasSiblings && !walk.rules.typeBesideUnion) ||
    (walk.rules.unions === 'one-of' && branches.length < 2)
  ) {
    // The route cannot say this union exactly: it goes in the description and the slot takes any JSON on the wire.
    return spillWhole(walk, node, pointer, keyword)
  }
  const projected = branches.map((branch, index) =>
    projectSchema(walk, branch, child(pointer, keyword, index)),
  )
  // Sent as one JSON-text slot instead, every value reads back one way (and is validated against the declared union).
  if (readsStringsTwoWays(walk, projected)) return spillWhole(walk, node, pointer, keyword)
  let unionKeyword = wireKeyword
  if (unionKeyword === 'oneOf' && projected.some((p, i) => widensBranch(branches[i]!, p))) {
    // A branch sent wider than declared (JSON text, an untyped slot) overlaps the others, and a oneOf on the wire
    // would then reject every value both take. anyOf where the route has it (the declared oneOf is still enforced
    // locally); otherwise the union only stays if its wire branches remain disjoint.
    if (walk.rules.unions === 'any-of-and-one-of') {
      note(walk, pointer, 'converted', 'oneOf with a widened branch written as anyOf', 'oneOf')
      unionKeyword = 'anyOf'
    } else if (!branchesDisjoint(projected.map((p) => p.wire))) {
      return spillWhole(walk, node, pointer, keyword)
    }
  }
  const base = hasSiblings
    ? projectSchema(walk, rest, pointer)
    : { wire: annotationsWire(walk, rest), decoder: IDENTITY }
  if (!hasSiblings && nullableFlag && isJsonObject(base.wire)) base.wire.nullable = rest.nullable as boolean
  if (!isJsonObject(base.wire) || base.decoder.kind === 'json-text')
    return spillWhole(walk, node, pointer, keyword)
  const wire: JsonObject = { ...base.wire, [unionKeyword]: projected.map((p) => p.wire) }
  const decoder: Decoder = projected.every((p) => p.decoder.kind === 'identity')
    ? base.decoder
    : {
        kind: 'union',
        branches: projected.map((p) => p.decoder),
        types: projected.map((p) => wireTypes(throughRef(walk, p.wire) ?? true)),
        declared: node,
      }
  return { wire, decoder }
}

function annotationsWire(walk: Walk, node: JsonObject): JsonObject {
  const wire: JsonObject = {}
  const spilled = new Map<string, JsonValue>()
  for (const keyword of ANNOTATIONS) {
    if (!Object.hasOwn(node, keyword) || keyword === 'description') continue
    if (walk.rules.keeps.has(keyword)) defineOwn(wire, keyword, node[keyword])
    else spilled.set(keyword, node[keyword]!)
  }
  const description =
    spilled.size > 0
      ? joinDescription(node.description as string | undefined, spillText(spilled))
      : (node.description as string | undefined)
  return withDescription(wire, description)
}

/** A construct the route cannot express: described in words, sent as an any-JSON slot, enforced locally. */
function spillWhole(walk: Walk, node: JsonObject, pointer: string, keyword: string): Projected {
  note(
    walk,
    pointer,
    'spilled',
    `${keyword} cannot be expressed on this route; described and enforced locally`,
    keyword,
  )
  const { description, ...constraints } = node
  const text = spillText(new Map(Object.entries(constraints).filter(([key]) => !METADATA.has(key))))
  return anyJsonSlot(
    walk,
    { description: joinDescription(description as string | undefined, text) ?? '' },
    pointer,
    `${keyword} sent as JSON text`,
  )
}

/**
 * `allOf: [member]` merged into its parent. A key both hold may have the same value, or be one that constrains
 * nothing (metadata, an annotation, not vocabulary: the parent's describes this use, and metadata is dropped
 * anyway); the merge is refused only when both constrain a key differently. (`projectTyped` sends the allOf then
 * only while such a key stays on the wire.)
 */
function mergeSingleAllOf(node: JsonObject): JsonObject | undefined {
  const member = singleMember(node.allOf)
  if (member === undefined) return undefined
  const { allOf: _allOf, ...rest } = node
  const shared = Object.keys(member).filter((key) => Object.hasOwn(rest, key))
  if (shared.some((key) => constrains(key) && !sameJson(rest[key]!, member[key]!))) return undefined
  const merged: JsonObject = { ...rest, ...member }
  for (const key of shared) defineOwn(merged, key, rest[key])
  return merged
}

/** The one member of an `allOf` of one schema object, or `undefined`. */
function singleMember(members: JsonValue | undefined): JsonObject | undefined {
  return Array.isArray(members) && members.length === 1 && isJsonObject(members[0]) ? members[0] : undefined
}

function constrains(keyword: string): boolean {
  return (
    isVocabulary(keyword) && !METADATA.has(keyword) && !(ANNOTATIONS as readonly string[]).includes(keyword)
  )
}

/**
 * Projection recurses once per schema level, so nesting past `maxDepth` is sent as an any-JSON slot (JSON text on
 * routes that need it) and still enforced locally by the declared schema: no route has a use for such depth, and the
 * call stack stays bounded whatever the schema.
 */
export function projectSchema(walk: Walk, node: JsonValue, pointer: string): Projected {
  if (walk.depth >= walk.maxDepth) {
    const description =
      isJsonObject(node) && typeof node.description === 'string' ? node.description : undefined
    return anyJsonSlot(
      walk,
      description === undefined ? {} : { description },
      pointer,
      `nested deeper than ${walk.maxDepth} schema levels; sent whole and checked locally`,
    )
  }
  walk.depth++
  try {
    return projectNode(walk, node, pointer)
  } finally {
    walk.depth--
  }
}

function projectNode(walk: Walk, node: JsonValue, pointer: string): Projected {
  walk.meter?.count('projection-node')
  // The budget bounds what inlining builds; the declared nodes themselves are projected once each.
  if (walk.expanding.size > 0 && --walk.budget < 0)
    return anyJsonSlot(walk, {}, pointer, 'schema too large to send in full')
  if (node === true) return anyJsonSlot(walk, {}, pointer, '`true` (any value) sent as JSON text')
  if (!isJsonObject(node)) {
    if (walk.rules.booleanSchemas) return { wire: node, decoder: IDENTITY }
    return spillWhole(walk, { not: {} }, pointer, 'false')
  }
  if (typeof node.$ref === 'string') return projectRef(walk, node, pointer)
  const merged = mergeSingleAllOf(node)
  if (merged !== undefined) {
    note(walk, pointer, 'converted', 'a single-member allOf merged into its parent', 'allOf')
    return projectSchema(walk, merged, pointer)
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[keyword])) return projectUnion(walk, node, keyword, pointer)
  }
  if (walk.rules.enumStringsOnly) {
    const values = textEncodedValues(node, walk.rules)
    if (values !== undefined) return enumAsText(walk, node, values, pointer)
  }
  const types = declaredTypes(node)
  if (types === undefined) return anyJsonSlot(walk, node, pointer, 'a slot without a type sent as JSON text')
  // The arguments root must stay an object; below it, an open object becomes a JSON-text slot on strict routes.
  if (
    walk.rules.strictObjects &&
    types.includes('object') &&
    !isJsonObject(node.properties) &&
    pointer !== ''
  ) {
    return anyJsonSlot(
      walk,
      node,
      pointer,
      'an object without declared properties cannot be strict; sent as JSON text',
    )
  }
  if (walk.rules.nullType === 'nullable' && types.every((type) => type === 'null')) {
    // OpenAPI 3.0 has no null type and `nullable` needs a type beside it: a null-only slot goes as JSON text.
    return spillWhole(walk, node, pointer, 'type')
  }
  const simple = simplifyTypes(types)
  if (simple.length > 1 && walk.rules.typeLists !== 'keep')
    return projectTypeList(walk, node, simple, pointer)
  return projectTyped(walk, node, simple, pointer)
}

/**
 * The values of an `enum` (or `const`, where the route reads it as one) the route cannot list as they are: one that
 * is not a string, or the empty string where the route refuses it.
 */
function textEncodedValues(node: JsonObject, rules: ProfileRules): JsonValue[] | undefined {
  const values = Array.isArray(node.enum)
    ? node.enum
    : rules.constAsEnum && Object.hasOwn(node, 'const')
      ? [node.const as JsonValue]
      : undefined
  return values !== undefined && !values.every((value) => listableValue(value, rules)) ? values : undefined
}

/** A value the route's `enum` takes as it is (a string, and not `""` where the route refuses empty members). */
export function listableValue(value: JsonValue, rules: ProfileRules): boolean {
  return typeof value === 'string' && (rules.emptyEnumStrings || value !== '')
}

const ENUM_TEXT_NOTE =
  'Send one of the listed values as written; it is read back as the JSON value it spells.'

/**
 * Gemini takes `enum` only on strings ("enum: only allowed for STRING type"): the values travel as their JSON text
 * (`1` as `"1"`, `"a"` as `"\"a\""` when the list mixes types) and the `json-text` decoder reads each back as the
 * value it spells, so the model still chooses from exactly the declared values.
 */
function enumAsText(walk: Walk, node: JsonObject, values: readonly JsonValue[], pointer: string): Projected {
  note(
    walk,
    child(pointer, Array.isArray(node.enum) ? 'enum' : 'const'),
    'encoded-json',
    'non-string values sent as their JSON text and read back as values',
  )
  const wire: JsonObject = {
    type: 'string',
    enum: [...new Set(values.map((value) => JSON.stringify(value)))],
  }
  if (typeof node.title === 'string' && walk.rules.keeps.has('title')) wire.title = node.title
  const spilled = new Map<string, JsonValue>()
  for (const [keyword, value] of Object.entries(node)) {
    if (
      ['type', 'enum', 'const', 'description', 'title', 'nullable'].includes(keyword) ||
      METADATA.has(keyword)
    )
      continue
    if (isVocabulary(keyword)) spilled.set(keyword, value)
  }
  const description = joinDescription(
    node.description as string | undefined,
    spilled.size > 0 ? spillText(spilled) : undefined,
    ENUM_TEXT_NOTE,
  )
  return { wire: withDescription(wire, description), decoder: JSON_TEXT }
}

/** Rebuilds a node whose type is settled: structural keywords by type, the rest kept, dropped or spilled. */
function projectTyped(walk: Walk, node: JsonObject, types: JsonType[], pointer: string): Projected {
  const wire: JsonObject = {}
  const spilled = new Map<string, JsonValue>()
  let decoder: Decoder = IDENTITY
  const explicitType = node.type
  const typeValue: JsonValue = types.length === 1 ? types[0]! : types
  const renames = types.includes('object') ? keyRenames(walk, node) : undefined
  let rootConditions = false
  if (explicitType === undefined || JSON.stringify(explicitType) !== JSON.stringify(typeValue)) {
    note(
      walk,
      pointer,
      'converted',
      `type ${JSON.stringify(typeValue)} ${explicitType === undefined ? 'inferred from its keywords' : 'simplified'}`,
      'type',
    )
  }
  wire.type = typeValue
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'type' || keyword === 'description') continue
    if (keyword === 'nullable' && walk.rules.nullType === 'nullable' && typeof value === 'boolean') {
      // The route's own word for "also null" (what projection writes there): kept, so projecting is idempotent.
      wire.nullable = value
      continue
    }
    if (METADATA.has(keyword)) {
      // A definition map the route reads references into is sent again, with what the wire references in it.
      if (!walk.rules.refs.maps.has(keyword as DefinitionMap))
        note(walk, child(pointer, keyword), 'dropped', 'metadata the route does not need', keyword)
    } else if (!isVocabulary(keyword)) {
      note(walk, child(pointer, keyword), 'dropped', 'not JSON Schema vocabulary', keyword)
    } else if (pointer === '' && ROOT_CONDITIONAL.has(keyword)) {
      // No route takes a combinator at the arguments root ("input_schema does not support oneOf, allOf, or anyOf at
      // the top level"); the MCP boundary writes a root union as if/else (`union-root.ts`), enforced locally.
      note(
        walk,
        child(pointer, keyword),
        'spilled',
        'a root condition is enforced locally, not sent',
        keyword,
      )
      rootConditions = true
    } else if (refusedPattern(walk, keyword, value) !== undefined) {
      const feature = refusedPattern(walk, keyword, value)!
      note(
        walk,
        child(pointer, keyword),
        'spilled',
        `${REGEX_FEATURE_TEXT[feature]} is refused by this route's regex engine; described and enforced locally`,
        keyword,
      )
      spilled.set(keyword, value)
    } else if (renames !== undefined && NAMES_KEYS.has(keyword)) {
      // These name or match property keys, which are different on the wire.
      spilled.set(keyword, value)
    } else if (!STRUCTURAL.has(keyword) || keyword === 'allOf') {
      placeKeyword(walk, wire, spilled, keyword, value)
    }
  }
  if (types.includes('object')) decoder = projectObjectKeywords(walk, node, wire, spilled, pointer, renames)
  if (types.includes('array')) {
    const arrayResult = projectArrayKeywords(walk, node, wire, pointer)
    if (arrayResult === 'inexpressible') return spillWhole(walk, node, pointer, 'items')
    decoder = decoder.kind === 'identity' ? arrayResult : decoder
  }
  projectValueKeywords(walk, node, wire, spilled)
  spillLengthsBesideGrammar(walk.rules, wire, spilled)
  if (singleMember(wire.allOf) !== undefined && mergeSingleAllOf(wire) !== undefined) {
    // A member `mergeSingleAllOf` refused for a key this node does not send (dropped or spilled): beside the keys it
    // does send, the next projection would merge it, so it is spilled here (projecting stays idempotent).
    spilled.set('allOf', wire.allOf!)
    delete wire.allOf
  }
  for (const [keyword] of spilled)
    note(
      walk,
      child(pointer, keyword),
      'spilled',
      'not accepted by this route; described and enforced locally',
      keyword,
    )
  // Nothing spilled: the declared description goes as it is (even an empty one), so an accepted schema is unchanged.
  const description =
    spilled.size > 0 || rootConditions
      ? joinDescription(
          node.description as string | undefined,
          spilled.size > 0 ? spillText(spilled) : undefined,
          rootConditions ? ROOT_CONDITION_NOTE : undefined,
        )
      : (node.description as string | undefined)
  return { wire: withDescription(wire, description), decoder }
}

const ROOT_CONDITIONAL: ReadonlySet<string> = new Set(['if', 'then', 'else'])
const ROOT_CONDITION_NOTE =
  'Only some combinations of these fields are valid; they are checked before the tool runs.'

/** Keywords whose values name or match property keys: kept off the wire where keys are renamed. */
const NAMES_KEYS: ReadonlySet<string> = new Set([
  'patternProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
])

/** The first construct of a `pattern` (or of a `patternProperties` key) the route's engine refuses. */
function refusedPattern(walk: Walk, keyword: string, value: JsonValue) {
  const refused = walk.rules.refusedPatterns
  if (keyword === 'pattern' && typeof value === 'string') return refusedFeature(value, refused)
  if (keyword === 'patternProperties' && isJsonObject(value))
    for (const key of Object.keys(value)) {
      const feature = refusedFeature(key, refused)
      if (feature !== undefined) return feature
    }
  return undefined
}

/**
 * The wire names of an object's declared keys where the route refuses some (`ProfileRules.propertyKeys`). The table
 * is one for the whole document, over every key any object of it declares or requires: a refused key never becomes a
 * key another object (a sibling union branch, a nested or `$ref`'d object) already uses, so one wire key always reads
 * back to one declared key, whichever branch a value was sent for.
 */
function keyRenames(walk: Walk, node: JsonObject): Renames | undefined {
  const rule = walk.rules.propertyKeys
  if (rule === undefined || !isJsonObject(node.properties)) return undefined
  walk.keyTable ??= documentKeyRenames(walk.document, rule) ?? null
  const table = walk.keyTable
  if (table === null) return undefined
  for (const name of Object.keys(node.properties)) if (table.toWire.has(name)) return table
  if (Array.isArray(node.required))
    for (const name of node.required) if (typeof name === 'string' && table.toWire.has(name)) return table
  return undefined
}

/** The rename table over every key the document's objects declare or require, in one pass on an explicit stack. */
function documentKeyRenames(document: JsonObject, rule: NameRule): Renames | undefined {
  const names = new Set<string>()
  const seen = new Set<JsonObject>()
  const pending: JsonValue[] = [document]
  while (pending.length > 0) {
    const node = pending.pop()!
    if (!isJsonObject(node) || seen.has(node)) continue
    seen.add(node)
    if (isJsonObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name)
    // Undeclared required names are declared on the wire (`projectObjectKeywords`), so they are named too.
    if (Array.isArray(node.required))
      for (const name of node.required) if (typeof name === 'string') names.add(name)
    for (const { schema } of subschemasOf(node)) pending.push(schema)
  }
  return renameAll(names, rule)
}

/** Constraint keywords are kept verbatim where the route takes them, unless they hold a `$ref` that inlining removed. */
function placeKeyword(
  walk: Walk,
  wire: JsonObject,
  spilled: Map<string, JsonValue>,
  keyword: string,
  value: JsonValue,
): void {
  const mentionsRef = containsKey(value, '$ref')
  if (walk.rules.keeps.has(keyword) && !mentionsRef && !exceedsRepetition(walk.rules, keyword, value))
    defineOwn(wire, keyword, value)
  else spilled.set(keyword, value)
}

function projectValueKeywords(
  walk: Walk,
  node: JsonObject,
  wire: JsonObject,
  spilled: Map<string, JsonValue>,
): void {
  const { rules } = walk
  // DSH's subset takes enum/const only on one scalar type (the profile contract's placement rule).
  const valuesPlaceable =
    rules.id !== 'dsh-subset' || (typeof wire.type === 'string' && SCALAR_TYPES.has(wire.type))
  if (Array.isArray(node.enum)) {
    if (!valuesPlaceable || (rules.enumStringsOnly && !node.enum.every((value) => typeof value === 'string')))
      spilled.set('enum', node.enum)
    else wire.enum = node.enum
  }
  if (Object.hasOwn(node, 'const')) {
    const constant = node.const as JsonValue
    if (!valuesPlaceable) spilled.set('const', constant)
    else if (!rules.constAsEnum) wire.const = constant
    else if (typeof constant === 'string' && !Object.hasOwn(wire, 'enum')) wire.enum = [constant]
    else spilled.set('const', constant)
  }
  if (typeof node.format === 'string') {
    const format = node.format
    if (
      rules.keeps.has('format') &&
      (rules.formats === undefined || rules.formats.has(format)) &&
      !(format === 'enum' && rules.enumFormatNeedsEnum && !Array.isArray(wire.enum))
    )
      wire.format = format
    else spilled.set('format', format)
  }
}

function projectObjectKeywords(
  walk: Walk,
  node: JsonObject,
  wire: JsonObject,
  spilled: Map<string, JsonValue>,
  pointer: string,
  renames: Renames | undefined,
): Decoder {
  const { rules } = walk
  const declaredRequired = Array.isArray(node.required) ? (node.required as string[]) : []
  const wireName = (name: string): string => renames?.toWire.get(name) ?? name
  // Sets, not Array.includes: a wide object must cost linear time, not quadratic.
  const requiredSet = new Set(declaredRequired)
  const decoders = new Map<string, Decoder>()
  const syntheticNull = new Set<string>()
  const properties = isJsonObject(node.properties) ? node.properties : undefined
  /** Declared names sent on the wire, and those left off it (a `false` property on routes without booleans). */
  const sent = new Set<string>()
  const omitted = new Set<string>()
  const wireProperties: JsonObject = {}
  const place = (name: string, schema: JsonValue, at: string): void => {
    const projected = projectSchema(walk, schema, at)
    let propertyWire = projected.wire
    const key = wireName(name)
    if (key !== name)
      note(walk, at, 'renamed', `sent as ${JSON.stringify(key)} (the route refuses the key) and mapped back`)
    const optional = !requiredSet.has(name)
    if (
      optional &&
      (rules.nullableOptionals || rules.strictObjects) &&
      (isJsonObject(propertyWire) || propertyWire === false) &&
      // A kept `$ref` admits what its definition does (one not projected yet, a cycle, counts as no).
      !admitsNull(throughRef(walk, propertyWire) ?? false)
    ) {
      // `false` (must be absent) still gets filled by these routes: null is all it may hold on the wire.
      propertyWire = propertyWire === false ? { type: 'null' } : widenToNullable(propertyWire)
      // A null the declared schema admits itself (an any-JSON slot sent as JSON text) is a real value, not a filler.
      if (!declaredAdmitsNull(walk, schema)) syntheticNull.add(key)
      note(walk, at, 'widened-nullable', 'optional: null on the wire means "not provided"')
    }
    defineOwn(wireProperties, key, propertyWire)
    sent.add(name)
    if (projected.decoder.kind !== 'identity') decoders.set(key, projected.decoder)
  }
  if (properties !== undefined) {
    for (const [name, schema] of Object.entries(properties)) {
      if (schema === false && !rules.booleanSchemas) {
        note(
          walk,
          child(pointer, 'properties', name),
          'spilled',
          'a property that must be absent is left off the wire',
        )
        spilled.set(`not ${name}`, false)
        omitted.add(name)
        continue
      }
      place(name, schema, child(pointer, 'properties', name))
    }
  } else if (node.properties !== undefined) {
    spilled.set('properties', node.properties)
  }
  // A required name `properties` does not declare must be present with any value additionalProperties admits (JSON
  // Schema 2020-12 §10.3.2.3): declaring it with that schema says the same, and Gemini refuses the undeclared name
  // ("required[0]: property is not defined"). Under `additionalProperties: false` no value is valid: left as declared.
  const additionalSchema = node.additionalProperties ?? true
  const undeclared = declaredRequired.filter((name) => !omitted.has(name) && !sent.has(name))
  // A pattern may give the name another schema, but only where the wire keeps the patterns (an empty map or a spilled
  // one leaves the wire with none, and projecting the wire again would then declare the name: not a fixed point).
  const patterns = node.patternProperties
  const patternsOnWire =
    isJsonObject(patterns) && Object.keys(patterns).length > 0 && rules.keeps.has('patternProperties')
  const declarable = additionalSchema !== false && !patternsOnWire
  if (declarable) {
    for (const name of undeclared) {
      note(
        walk,
        child(pointer, 'required'),
        'converted',
        `required ${JSON.stringify(name)} declared with the schema additionalProperties gives it`,
        'required',
      )
      place(name, additionalSchema, child(pointer, 'additionalProperties'))
    }
  }
  // `properties: {}` constrains nothing, so adding it where the route wants the map keeps the meaning.
  if (properties !== undefined || sent.size > 0 || rules.objectsNeedProperties)
    wire.properties = wireProperties
  const wireNames = Object.keys(wireProperties)
  const stillUndeclared = declarable ? [] : undeclared
  if (rules.requiredDeclaredOnly && stillUndeclared.length > 0) spilled.set('required', stillUndeclared)
  const required = declaredRequired
    .filter((name) => !omitted.has(name) && (!rules.requiredDeclaredOnly || sent.has(name)))
    .map(wireName)
  if (rules.strictObjects) {
    // Strict mode wants `required` on every object, even an empty one.
    wire.required = wireNames
    if (JSON.stringify(wireNames) !== JSON.stringify(declaredRequired))
      note(walk, pointer, 'closed-object', 'every property listed in required; optional ones admit null')
  } else if (Array.isArray(node.required)) {
    wire.required = required
  }
  const additional = projectAdditional(walk, node, wire, spilled, pointer)
  if (additional.kind !== 'identity') {
    // A declared property is never read with the additionalProperties decoder, even when its own is the identity.
    for (const name of wireNames) if (!decoders.has(name)) decoders.set(name, IDENTITY)
  }
  if (
    decoders.size === 0 &&
    syntheticNull.size === 0 &&
    additional.kind === 'identity' &&
    renames === undefined
  )
    return IDENTITY
  // What the wire makes the model send, so a union can tell this object's values from another branch's.
  const wireRequired = Array.isArray(wire.required) ? (wire.required as string[]) : []
  return {
    kind: 'object',
    properties: decoders,
    additional,
    syntheticNull,
    ...(renames === undefined ? {} : { renamed: renames.fromWire }),
    ...(wireRequired.length === 0 ? {} : { required: wireRequired }),
  }
}

function projectAdditional(
  walk: Walk,
  node: JsonObject,
  wire: JsonObject,
  spilled: Map<string, JsonValue>,
  pointer: string,
): Decoder {
  const { rules } = walk
  const additional = node.additionalProperties
  if (rules.strictObjects) {
    if (additional !== false)
      note(
        walk,
        pointer,
        'closed-object',
        'additionalProperties: false (strict mode)',
        'additionalProperties',
      )
    // Only a root can get here without properties: strict mode needs the map, and extra keys cannot be sent.
    if (wire.properties === undefined) wire.properties = {}
    if (additional !== undefined && additional !== false) spilled.set('additionalProperties', additional)
    wire.additionalProperties = false
    return IDENTITY
  }
  if (additional === undefined) return IDENTITY
  if (typeof additional === 'boolean') {
    if (rules.keeps.has('additionalProperties')) wire.additionalProperties = additional
    else if (additional === false) spilled.set('additionalProperties', false)
    return IDENTITY
  }
  if (!rules.schemaValuedAdditional) {
    spilled.set('additionalProperties', additional)
    if (rules.keeps.has('additionalProperties')) wire.additionalProperties = true
    return IDENTITY
  }
  const projected = projectSchema(walk, additional, child(pointer, 'additionalProperties'))
  wire.additionalProperties = projected.wire
  return projected.decoder
}

function projectArrayKeywords(
  walk: Walk,
  node: JsonObject,
  wire: JsonObject,
  pointer: string,
): Decoder | 'inexpressible' {
  const { rules } = walk
  const tuple = Array.isArray(node.items)
    ? node.items
    : Array.isArray(node.prefixItems)
      ? node.prefixItems
      : undefined
  const rest = Array.isArray(node.items)
    ? node.additionalItems
    : Array.isArray(node.prefixItems)
      ? node.items
      : undefined
  if (tuple !== undefined) {
    if (rules.tuples === 'none') return 'inexpressible'
    const prefix = tuple.map((schema, index) => projectSchema(walk, schema, child(pointer, 'items', index)))
    const restProjected =
      rest === undefined ? undefined : projectSchema(walk, rest, child(pointer, 'additionalItems'))
    const [tupleKeyword, restKeyword] =
      rules.tuples === 'prefix-items' ? ['prefixItems', 'items'] : ['items', 'additionalItems']
    if (Array.isArray(node.items) !== (tupleKeyword === 'items'))
      note(walk, pointer, 'converted', `tuple written with ${tupleKeyword}`, tupleKeyword)
    wire[tupleKeyword] = prefix.map((p) => p.wire)
    if (restProjected !== undefined) wire[restKeyword] = restProjected.wire
    const decoders = prefix.map((p) => p.decoder)
    const restDecoder = restProjected?.decoder ?? IDENTITY
    return decoders.every((d) => d.kind === 'identity') && restDecoder.kind === 'identity'
      ? IDENTITY
      : { kind: 'array', prefix: decoders, items: restDecoder }
  }
  if (node.items === undefined && !rules.typedEverywhere && !rules.arraysNeedItems) return IDENTITY
  const items = projectSchema(walk, node.items ?? true, child(pointer, 'items'))
  wire.items = items.wire
  return items.decoder.kind === 'identity' ? IDENTITY : { kind: 'array', prefix: [], items: items.decoder }
}

export function createWalk(
  rules: ProfileRules,
  document: JsonObject,
  budget: number,
  maxDepth: number,
  meter?: WorkMeter,
  unrolled: ReadonlySet<string> | 'all' = new Set(),
): Walk {
  return {
    definitions: new Map(),
    wireRefs: new Map(),
    unrolled,
    misjudged: new Set(),
    sentMaps: new Set(),
    host: undefined,
    inlining: undefined,
    rules,
    document,
    refs: localRefs(document),
    changes: [],
    expanding: new Set(),
    admitsNull: new WeakMap(),
    stringReadings: new WeakMap(),
    meter,
    budget,
    depth: 0,
    maxDepth,
    keyTable: undefined,
  }
}
