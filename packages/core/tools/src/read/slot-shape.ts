import { parsePointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue, ownValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { declaredShape, type Shape } from './declared-shape.ts'
import { ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING } from './json-type-bits.ts'

/**
 * What the declared schema admits at one argument slot, and which declared node governs each slot below it: the
 * schema side of reading arguments back (`read-arguments.ts`). It answers one question per slot — may a string here
 * be a stringified object or array? — and must never say yes where the declared schema admits a string, so what it
 * cannot follow exactly (a `$ref` beside other constraints, `allOf`, `patternProperties`, ...) it leaves alone.
 *
 * Every answer is memoized per schema node, and each is computed on an explicit stack, so a `$defs` chain of unions
 * of `$ref`s costs one visit per node however often its nodes are shared: linear in the schema, not in its unfolding.
 */
// Integers count as numbers here: what matters is whether a string may be JSON text, not which number it holds.
const ALL = OBJECT | ARRAY | STRING | NUMBER | BOOLEAN | NULL

const TYPE_BITS: ReadonlyMap<string, number> = new Map([
  ['object', OBJECT],
  ['array', ARRAY],
  ['string', STRING],
  ['number', NUMBER],
  ['integer', NUMBER],
  ['boolean', BOOLEAN],
  ['null', NULL],
])

function bitOf(value: JsonValue): number {
  if (value === null) return NULL
  if (Array.isArray(value)) return ARRAY
  if (typeof value === 'object') return OBJECT
  return TYPE_BITS.get(typeof value) ?? ALL
}

/** Keywords beside which a node's own `properties`/`items` are not the whole story for the slots below it. */
const COMPLEX = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'not',
  'if',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  'patternProperties',
] as const

type Node = JsonValue

// `needsLook` follows the schema by recursion; past this depth it answers "may" instead of going deeper.
const MAX_LOOK_DEPTH = 128

export class SlotShapes {
  private readonly admitted = new WeakMap<object, number>()
  private readonly resolved = new WeakMap<object, Node | null>()
  private readonly branchFor = new WeakMap<object, Map<number, Node | null>>()
  private readonly containers = new WeakMap<object, Map<number, JsonObject | null>>()
  private readonly looks = new WeakMap<object, boolean>()
  private readonly belowLooks = new WeakMap<object, boolean>()
  private readonly compiled = new WeakMap<object, Shape>()
  private readonly watches = new WeakMap<
    object,
    { readonly keys: readonly string[]; readonly others: boolean }
  >()

  private readonly document: JsonObject
  private readonly meter: WorkMeter | undefined

  constructor(document: JsonObject, meter?: WorkMeter) {
    this.document = document
    this.meter = meter
  }

  private target(ref: string): Node | undefined {
    const segments = parsePointer(ref)
    if (segments === undefined) return undefined
    let at: Node | undefined = this.document
    for (const segment of segments) {
      at = Array.isArray(at) ? at[Number(segment)] : isJsonObject(at) ? ownValue(at, segment) : undefined
      if (at === undefined) return undefined
    }
    return at
  }

  /**
   * The JSON types `node` admits, as bits: an over-approximation (never missing a type the schema admits). `type`,
   * `enum`, `const`, `false`, and the unions, `allOf` and `$ref`s below it narrow it; a `$ref` cycle counts as any.
   */
  admits(node: Node): number {
    if (!isJsonObject(node)) return node === false ? 0 : ALL
    const known = this.admitted.get(node)
    if (known !== undefined) return known
    const entering = new Set<object>()
    const stack: JsonObject[] = [node]
    while (stack.length > 0) {
      const at = stack[stack.length - 1]!
      if (this.admitted.has(at)) {
        stack.pop()
        continue
      }
      const parts = this.partsOf(at)
      if (!entering.has(at)) {
        entering.add(at)
        this.meter?.count('shape-node')
        for (const part of parts.all)
          if (isJsonObject(part) && !this.admitted.has(part) && !entering.has(part)) stack.push(part)
        continue
      }
      stack.pop()
      // A part still being entered is on a cycle: it constrains nothing we can know here.
      const of = (part: Node): number =>
        isJsonObject(part) ? (this.admitted.get(part) ?? ALL) : part === false ? 0 : ALL
      let mask = ownTypes(at)
      if (parts.ref !== undefined) mask = of(parts.ref) // draft-07 ignores siblings; later drafts narrow further
      for (const union of parts.unions) mask &= union.reduce<number>((bits, branch) => bits | of(branch), 0)
      for (const member of parts.conjuncts) mask &= of(member)
      this.admitted.set(at, mask)
    }
    return this.admitted.get(node) ?? ALL
  }

  private partsOf(node: JsonObject): {
    readonly ref: Node | undefined
    readonly unions: readonly (readonly Node[])[]
    readonly conjuncts: readonly Node[]
    readonly all: readonly Node[]
  } {
    const ref = typeof node.$ref === 'string' ? (this.target(node.$ref) ?? true) : undefined
    const unions = [node.anyOf, node.oneOf].filter(
      (list): list is Node[] => Array.isArray(list) && list.length > 0,
    )
    const conjuncts = Array.isArray(node.allOf) ? node.allOf : []
    const all = [...(ref === undefined ? [] : [ref]), ...unions.flat(), ...conjuncts]
    return { ref, unions, conjuncts, all }
  }

  /** `node` with a bare `$ref` chain followed (memoized); `null` on a cycle. */
  private resolve(node: Node): Node | null {
    if (!isJsonObject(node)) return node
    const known = this.resolved.get(node)
    if (known !== undefined) return known
    const chain: JsonObject[] = []
    const seen = new Set<object>()
    let at: Node | null = node
    while (isJsonObject(at) && typeof at.$ref === 'string' && onlyRef(at)) {
      const memo = this.resolved.get(at)
      if (memo !== undefined) {
        at = memo
        break
      }
      if (seen.has(at)) {
        at = null
        break
      }
      seen.add(at)
      chain.push(at)
      this.meter?.count('shape-node')
      at = this.target(at.$ref) ?? true
    }
    for (const link of chain) this.resolved.set(link, at)
    return at
  }

  /** For a union slot holding a value of `kind`: its one branch that admits `kind`, resolved; `null` if not one. */
  private branchOf(node: JsonObject, kind: number): Node | null {
    let byKind = this.branchFor.get(node)
    if (byKind === undefined) {
      byKind = new Map()
      this.branchFor.set(node, byKind)
    }
    const known = byKind.get(kind)
    if (known !== undefined) return known
    const branches = [
      ...(Array.isArray(node.anyOf) ? node.anyOf : []),
      ...(Array.isArray(node.oneOf) ? node.oneOf : []),
    ]
    const taking = branches.filter((branch) => (this.admits(branch) & kind) !== 0)
    const branch = taking.length === 1 ? this.resolve(taking[0]!) : null
    byKind.set(kind, branch)
    return branch
  }

  /**
   * The declared node whose own `properties`/`items` govern the slots of a `kind` value at `slot` (a `$ref` chain
   * followed, a union's one branch for `kind`), or `null` when no single node does as far as this reading can tell.
   * Memoized per (node, kind), so reading a call costs a map lookup per value, not a look at the schema.
   */
  containerOf(slot: Node | null, kind: number): JsonObject | null {
    if (!isJsonObject(slot)) return null
    let byKind = this.containers.get(slot)
    if (byKind === undefined) {
      byKind = new Map()
      this.containers.set(slot, byKind)
    }
    let container = byKind.get(kind)
    if (container === undefined) {
      container = this.findContainer(slot, kind)
      byKind.set(kind, container)
    }
    return container
  }

  private findContainer(slot: JsonObject, kind: number): JsonObject | null {
    let node = this.resolve(slot)
    if (!isJsonObject(node)) return null
    if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) {
      if (hasOwnSlots(node)) return null
      node = this.branchOf(node, kind)
      if (!isJsonObject(node) || Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) return null
    }
    const container = node
    return COMPLEX.some((keyword) => Object.hasOwn(container, keyword)) ? null : container
  }

  /** The declared node governing property `key` of an object whose container node is `container`, or `null`. */
  static property(container: JsonObject, key: string): Node | null {
    const properties = container.properties
    if (isJsonObject(properties) && Object.hasOwn(properties, key)) return properties[key]!
    return isJsonObject(container.additionalProperties) ? container.additionalProperties : null
  }

  /** The declared node governing item `index` of an array whose container node is `container`, or `null`. */
  static item(container: JsonObject, index: number): Node | null {
    const tuple = Array.isArray(container.prefixItems)
      ? container.prefixItems
      : Array.isArray(container.items)
        ? container.items
        : undefined
    if (tuple === undefined) return isJsonObject(container.items) ? container.items : null
    if (index < tuple.length) return tuple[index]!
    const rest = Array.isArray(container.prefixItems) ? container.items : container.additionalItems
    return isJsonObject(rest) ? rest : null
  }

  /**
   * Whether reading a value at `slot` with no decoding can ever change it: a string there may be a stringified
   * container, or a container there has such a slot below it. Memoized per node; nesting past `MAX_LOOK_DEPTH` and
   * `$ref` cycles count as "may", which only costs a look.
   */
  needsLook(slot: Node | null, depth = 0): boolean {
    if (!isJsonObject(slot)) return false
    const known = this.looks.get(slot)
    if (known !== undefined) return known
    if (depth > MAX_LOOK_DEPTH) return true
    this.looks.set(slot, true) // a cycle back to this slot: "may"
    const result =
      this.parsesStrings(slot) ||
      this.lookBelow(this.containerOf(slot, OBJECT), depth) ||
      this.lookBelow(this.containerOf(slot, ARRAY), depth)
    this.looks.set(slot, result)
    return result
  }

  /** The declared properties of `container` a value's key needs a look at, and whether any other key does. */
  watched(container: JsonObject, depth = 0): { readonly keys: readonly string[]; readonly others: boolean } {
    let watch = this.watches.get(container)
    if (watch === undefined) {
      const properties = isJsonObject(container.properties) ? container.properties : {}
      const keys = Object.keys(properties).filter((key) => this.needsLook(properties[key]!, depth + 1))
      const additional = container.additionalProperties
      watch = { keys, others: isJsonObject(additional) && this.needsLook(additional, depth + 1) }
      this.watches.set(container, watch)
    }
    return watch
  }

  /** Whether a container value whose container node is `container` has a slot below that may change. */
  lookBelow(container: JsonObject | null, depth = 0): boolean {
    if (container === null) return false
    let result = this.belowLooks.get(container)
    if (result === undefined) {
      const watch = this.watched(container, depth)
      const items = [container.items, container.prefixItems, container.additionalItems].flatMap((slot) =>
        Array.isArray(slot) ? slot : [slot],
      )
      result =
        watch.keys.length > 0 ||
        watch.others ||
        items.some((slot) => slot !== undefined && this.needsLook(slot as Node, depth + 1))
      this.belowLooks.set(container, result)
    }
    return result
  }

  /**
   * What `node` admits as far as a structural check tells (`declared-shape.ts`), for a union that reads a string as
   * JSON text only when it parses to such a value. Compiled on first use, each node once, `$ref`s followed here.
   */
  shapeOf(node: Node): Shape {
    const known = isJsonObject(node) ? this.compiled.get(node) : undefined
    if (known !== undefined) return known
    return declaredShape({ resolve: (ref) => this.target(ref), memo: this.compiled, meter: this.meter }, node)
  }

  /** Whether a string at `slot` may be a stringified container: the slot admits one, and no string. */
  parsesStrings(slot: Node | null): boolean {
    if (slot === null) return false
    const admits = this.admits(slot)
    return (admits & STRING) === 0 && (admits & (OBJECT | ARRAY)) !== 0
  }
}

const REF_SIBLINGS = new Set([
  '$ref',
  'description',
  'title',
  'default',
  'examples',
  '$comment',
  '$defs',
  'definitions',
])

function onlyRef(node: JsonObject): boolean {
  return Object.keys(node).every((key) => REF_SIBLINGS.has(key))
}

function hasOwnSlots(node: JsonObject): boolean {
  return ['properties', 'additionalProperties', 'items', 'prefixItems', 'additionalItems'].some((key) =>
    Object.hasOwn(node, key),
  )
}

function ownTypes(node: JsonObject): number {
  let mask = ALL
  if (typeof node.type === 'string') mask &= TYPE_BITS.get(node.type) ?? ALL
  else if (Array.isArray(node.type))
    mask &= node.type.reduce<number>((bits, t) => bits | (TYPE_BITS.get(String(t)) ?? ALL), 0)
  if (Array.isArray(node.enum)) mask &= node.enum.reduce<number>((bits, value) => bits | bitOf(value), 0)
  if (Object.hasOwn(node, 'const')) mask &= bitOf(node.const!)
  return mask
}
