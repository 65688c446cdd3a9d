import { isJsonObject, type JsonValue } from '../json/json-value.ts'
import type { Decoder } from '../projection/types.ts'
import { ARRAY, OBJECT, STRING } from './json-type-bits.ts'

/**
 * Which decoding a union slot's value gets, decided by the value's JSON type (and an object's keys): the
 * projection's branches for that type are merged into one decoder, computed once per (union, type) and memoized, so
 * reading never tries one reading per branch (which doubles per nested union). Where the branches disagree:
 *
 * - a string is parsed as JSON text when every branch for strings was sent as JSON text; when another branch takes
 *   strings as they are, never where the branches are object branches sharing the key (the string is valid as it is
 *   for one of them: stock DSH hands it over unchanged), and otherwise only when it parses to a value that fits the
 *   declared union's shape (`declared-shape.ts`:
 *   types, tuples and items, required keys, bounds), so a string that is not such JSON text stays the string it is
 *   (`"[false]"` beside a string branch and a tuple of string and integer; `"\"x\""` reads as `"x"` only beside a
 *   branch that admits that string);
 * - an object or array gets every branch's decoding, merged key by key (a key's decoders merge the same way). An
 *   object gets only the decodings whose wire object requires no key it lacks: it cannot have been sent for the
 *   others, and their decoding of a key the branch it was sent for keeps as it is (JSON text for an any-JSON
 *   `additionalProperties`, say) would change a valid string. When it fits none of them and a branch takes objects
 *   as they are, it is read as it is. Which decodings fit is memoized per union, as a bit string.
 */
type UnionDecoder = Extract<Decoder, { kind: 'union' }>
type ObjectDecoder = Extract<Decoder, { kind: 'object' }>
type ArrayDecoder = Extract<Decoder, { kind: 'array' }>

/**
 * A decoder, or the reading of a string that may be JSON text: left as sent when a branch that takes strings as they
 * are admits it (`keptAsIs`, declared nodes; stock DSH hands it over so), else parsed only into a value `declared`
 * admits.
 */
export type Reading =
  | Decoder
  | {
      readonly kind: 'json-text-of'
      readonly declared: JsonValue | undefined
      readonly keptAsIs: readonly JsonValue[]
    }

export const IDENTITY: Decoder = Object.freeze({ kind: 'identity' })
const JSON_TEXT: Decoder = Object.freeze({ kind: 'json-text' })
const ALL = 63

const TYPE_BITS: Readonly<Record<string, number>> = {
  object: OBJECT,
  array: ARRAY,
  string: STRING,
  number: 8,
  integer: 8,
  boolean: 16,
  null: 32,
}

const resolved = new WeakMap<Decoder, Map<number, Reading>>()

/** Wire key → the JSON texts of the values a declared `const`/`enum` allows there (`"a"`, `1`, `null`). */
type Discriminators = ReadonlyMap<string, ReadonlySet<string>>

/** What a union does with an object value: its object decoders (nested unions flattened) and their merges. */
interface ObjectBranches {
  readonly objects: readonly ObjectDecoder[]
  /** Per object decoder, the keys its declared branch pins to `const`/`enum` values. */
  readonly discriminators: readonly Discriminators[]
  /** Some branch takes objects as they are: an object that fits no object decoder is read unchanged. */
  readonly keeps: boolean
  /** Some object decoder requires keys or pins a key's values, so which ones fit depends on the value. */
  readonly discriminates: boolean
  /** Merged decodings by which object decoders fit ('1' per fitting one, in order). */
  readonly merged: Map<string, Decoder>
  /** The wire keys some object branch renamed: each stands for that branch's declared key, never an extra key. */
  readonly renamedKeys: ReadonlySet<string>
}

const objectBranchesOf = new WeakMap<UnionDecoder, ObjectBranches>()
// Distinct fitting sets are few in practice; past this many a merge is built per value instead of kept.
const MAX_MERGES = 64

function kindsOf(decoder: Decoder, types: readonly string[] | undefined): number {
  if (types !== undefined) return types.reduce((bits, type) => bits | (TYPE_BITS[type] ?? ALL), 0)
  switch (decoder.kind) {
    case 'json-text':
      return STRING
    case 'object':
      return OBJECT
    case 'array':
      return ARRAY
    default:
      return ALL
  }
}

/** One decoder reading any of `decoders` (already resolved for one type): the union of what each decodes. */
function unionOf(decoders: readonly Decoder[]): Decoder {
  const distinct = [...new Set(decoders)]
  if (distinct.length === 1) return distinct[0]!
  if (distinct.every((decoder) => decoder.kind === 'identity')) return IDENTITY
  return { kind: 'union', branches: distinct, merged: true }
}

function mergeObjects(decoders: readonly ObjectDecoder[]): Decoder {
  if (decoders.length === 1) return decoders[0]!
  const keys = new Set(decoders.flatMap((decoder) => [...decoder.properties.keys()]))
  const properties = new Map<string, Decoder>()
  for (const key of keys)
    properties.set(key, unionOf(decoders.map((decoder) => decoder.properties.get(key) ?? decoder.additional)))
  const renamed = new Map(decoders.flatMap((decoder) => [...(decoder.renamed ?? [])]))
  return {
    kind: 'object',
    properties,
    additional: unionOf(decoders.map((decoder) => decoder.additional)),
    syntheticNull: new Set(decoders.flatMap((decoder) => [...decoder.syntheticNull])),
    ...(renamed.size > 0 ? { renamed } : {}),
  }
}

function mergeArrays(decoders: readonly ArrayDecoder[]): Decoder {
  if (decoders.length === 1) return decoders[0]!
  const length = Math.max(...decoders.map((decoder) => decoder.prefix.length))
  const prefix = Array.from({ length }, (_, index) =>
    unionOf(decoders.map((decoder) => decoder.prefix[index] ?? decoder.items)),
  )
  return { kind: 'array', prefix, items: unionOf(decoders.map((decoder) => decoder.items)) }
}

/** The decoding a value of JSON type `kind` (one bit) gets at `decoder`: a union resolved to one of the other kinds. */
export function decoderFor(decoder: Decoder, kind: number, value?: unknown): Reading {
  if (decoder.kind !== 'union') return decoder
  if (kind === OBJECT && value !== undefined) {
    const branches = objectBranches(decoder)
    if (branches.discriminates) return fittingDecoder(branches, value as Readonly<Record<string, unknown>>)
  }
  let byKind = resolved.get(decoder)
  if (byKind === undefined) {
    byKind = new Map()
    resolved.set(decoder, byKind)
  }
  let result = byKind.get(kind)
  if (result === undefined) {
    result = resolveUnion(decoder, kind)
    byKind.set(kind, result)
  }
  return result
}

function resolveUnion(union: UnionDecoder, kind: number): Reading {
  const taking = union.branches.flatMap((branch, index) =>
    (kindsOf(branch, union.types?.[index]) & kind) !== 0 ? [index] : [],
  )
  if (kind === STRING) {
    let keeps = false
    let text = false
    for (const index of taking) {
      // A nested union is as deep as the projection's own depth bound (`maxDepth`), so this recursion is bounded too.
      const reading = decoderFor(union.branches[index]!, kind)
      // A nested union that parses only some strings keeps the others as they are.
      if (reading.kind === 'json-text' || reading.kind === 'json-text-of') text = true
      if (reading.kind !== 'json-text') keeps = true
    }
    if (!text) return IDENTITY
    if (!keeps) return JSON_TEXT
    // Two branches' readings of one key: the string is valid as it is for one of them, so it is not parsed.
    if (union.merged === true) return IDENTITY
    return { kind: 'json-text-of', declared: union.declared, keptAsIs: keptAsIs(union, taking) }
  }
  if (kind === OBJECT) {
    const { objects } = objectBranches(union)
    return objects.length === 0 ? IDENTITY : mergeObjects(objects)
  }
  const candidates = taking.map((index) => decoderFor(union.branches[index]!, kind) as Decoder)
  if (kind === ARRAY) {
    const arrays = candidates.filter((candidate): candidate is ArrayDecoder => candidate.kind === 'array')
    return arrays.length === 0 ? IDENTITY : mergeArrays(arrays)
  }
  return IDENTITY
}

/** The declared branches of `union`, index for index with its decoder's branches; `undefined` when they do not align. */
function declaredBranches(union: UnionDecoder): readonly JsonValue[] | undefined {
  const declared = union.declared
  if (!isJsonObject(declared)) return undefined
  const list = declared.anyOf ?? declared.oneOf
  return Array.isArray(list) && list.length === union.branches.length ? list : undefined
}

/**
 * The declared nodes of the branches among `taking` that take a string as it is (nested unions' own such nodes
 * included). Where the declared branches do not align with the wire's, the whole declared union stands for them, so
 * a string it admits is left as sent.
 */
function keptAsIs(union: UnionDecoder, taking: readonly number[]): readonly JsonValue[] {
  const declared = declaredBranches(union)
  const kept: JsonValue[] = []
  for (const index of taking) {
    const reading = decoderFor(union.branches[index]!, STRING)
    if (reading.kind === 'json-text') continue
    if (reading.kind === 'json-text-of') kept.push(...reading.keptAsIs)
    else kept.push(declared?.[index] ?? union.declared ?? true)
  }
  return kept
}

/** The keys a declared object branch pins to `const`/`enum` values, by the wire key they travel under. */
function discriminatorsOf(object: ObjectDecoder, declared: JsonValue | undefined): Discriminators {
  const pinned = new Map<string, ReadonlySet<string>>()
  if (!isJsonObject(declared) || !isJsonObject(declared.properties)) return pinned
  const wireKeys = new Map([...(object.renamed ?? [])].map(([wire, name]) => [name, wire]))
  for (const [name, property] of Object.entries(declared.properties)) {
    if (!isJsonObject(property)) continue
    const values = Object.hasOwn(property, 'const') ? [property.const] : property.enum
    if (!Array.isArray(values) || values.some((value) => typeof value === 'object' && value !== null))
      continue
    pinned.set(wireKeys.get(name) ?? name, new Set(values.map((value) => JSON.stringify(value))))
  }
  return pinned
}

/** Whether `value` may be what was sent for a pinned key: one of its values, or the JSON text of one (Gemini's enums). */
function allowedBy(values: ReadonlySet<string>, value: unknown): boolean {
  return values.has(JSON.stringify(value)) || (typeof value === 'string' && values.has(value))
}

/** The branches of `union` (nested unions flattened, on an explicit stack) that an object value can take. */
function objectBranches(union: UnionDecoder): ObjectBranches {
  const known = objectBranchesOf.get(union)
  if (known !== undefined) return known
  const objects = new Map<ObjectDecoder, JsonValue | undefined>()
  let keeps = false
  const stack: UnionDecoder[] = [union]
  while (stack.length > 0) {
    const at = stack.pop()!
    const declared = declaredBranches(at)
    for (const [index, branch] of at.branches.entries()) {
      if ((kindsOf(branch, at.types?.[index]) & OBJECT) === 0) continue
      if (branch.kind === 'union') stack.push(branch)
      else if (branch.kind === 'object') {
        if (!objects.has(branch)) objects.set(branch, declared?.[index])
      } else if (branch.kind === 'identity') keeps = true
    }
  }
  const list = [...objects.keys()]
  const discriminators = list.map((object) => discriminatorsOf(object, objects.get(object)))
  const branches: ObjectBranches = {
    objects: list,
    discriminators,
    keeps,
    // With one candidate and nothing kept as it is, the value gets that decoding whatever keys it has.
    discriminates:
      (list.length > 1 || keeps) &&
      list.some((object, index) => object.required !== undefined || discriminators[index]!.size > 0),
    merged: new Map(),
    renamedKeys: new Set(list.flatMap((object) => [...(object.renamed?.keys() ?? [])])),
  }
  objectBranchesOf.set(union, branches)
  return branches
}

/** Whether an object value at `union` has a key some object branch renamed (the wire name of a declared key). */
export function carriesRenamedKey(union: UnionDecoder, value: Readonly<Record<string, unknown>>): boolean {
  const { renamedKeys } = objectBranches(union)
  if (renamedKeys.size === 0) return false
  for (const key of Object.keys(value)) if (renamedKeys.has(key)) return true
  return false
}

/** Whether `object` names every renamed wire key `value` carries (another branch would take it as an extra key). */
function namesRenamedKeys(
  object: ObjectDecoder,
  renamedKeys: ReadonlySet<string>,
  value: Readonly<Record<string, unknown>>,
): boolean {
  if (renamedKeys.size === 0) return true
  for (const key of Object.keys(value))
    if (renamedKeys.has(key) && object.renamed?.has(key) !== true) return false
  return true
}

/** The decoding of an object value at a union: the merge of the object decoders whose required keys it has. */
function fittingDecoder(branches: ObjectBranches, value: Readonly<Record<string, unknown>>): Reading {
  const { objects, discriminators } = branches
  let fits = ''
  let fitting = 0
  for (const [index, object] of objects.entries()) {
    // A branch whose required key is missing, or whose pinned key holds another value, was not what was sent.
    let fit =
      (object.required?.every((key) => Object.hasOwn(value, key)) ?? true) &&
      namesRenamedKeys(object, branches.renamedKeys, value)
    for (const [key, values] of discriminators[index]!)
      if (fit && Object.hasOwn(value, key)) fit = allowedBy(values, value[key])
    fits += fit ? '1' : '0'
    if (fit) fitting++
  }
  if (fitting === 0) {
    if (branches.keeps) return IDENTITY
    // Sent for no branch the wire offers: every decoding, as a value that fits them all would get.
    fits = '1'.repeat(objects.length)
  }
  let merged = branches.merged.get(fits)
  if (merged === undefined) {
    merged = mergeObjects(objects.filter((_object, index) => fits[index] === '1'))
    if (branches.merged.size < MAX_MERGES) branches.merged.set(fits, merged)
  }
  return merged
}
