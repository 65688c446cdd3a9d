import type { JsonObject, JsonValue } from './tools.ts'
import type { WireCheck } from './wire-check.ts'

/**
 * A model that reads only the wire schema: given the value it means, it writes what that wire asks for. Written from
 * the wire alone, never from the projection's decoder: a string slot whose description says to send JSON text gets
 * `JSON.stringify`; a key the route renamed goes under its wire name (`renames`: declared key → wire key, the one table
 * a tool's renames form); a key the wire requires that the value leaves out is sent as `null` where the wire admits it
 * (strict routes list every key); a union gets one of the branches the value can be written for, chosen by `pick`.
 */
export type Encoded = { readonly sent: JsonValue } | { readonly unsendable: string }

/**
 * Where a strict wire made the model write `null` for a key the value leaves out: the only way it can say "not
 * provided" there. Filled in by `encodeForWire`; each entry is the JSON path of the key.
 */
export type Filled = string[][]

export interface EncoderContext {
  readonly root: JsonObject
  readonly check: WireCheck
  readonly renames: ReadonlyMap<string, readonly string[]>
  /** Chooses among `count` equally valid ways to write a value (seeded, so a run is reproducible). */
  readonly pick: (count: number) => number
  /** Collects the keys written as `null` for "not provided" (see `Filled`). */
  readonly filled: Filled
  /** The JSON path of the value being written. */
  readonly path: readonly string[]
}

const JSON_TEXT_WORDS = /as JSON text|the JSON value it spells/

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function resolve(root: JsonObject, node: JsonValue): JsonValue {
  let at = node
  for (
    let hops = 0;
    hops < 64 && isObject(at) && typeof at.$ref === 'string' && at.$ref.startsWith('#');
    hops++
  ) {
    let target: JsonValue | undefined = root
    for (const raw of at.$ref.slice(1).split('/').slice(1)) {
      const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
      target = Array.isArray(target)
        ? target[Number(segment)]
        : isObject(target)
          ? target[segment]
          : undefined
    }
    if (target === undefined) return true
    at = target
  }
  return at
}

function admitsString(node: JsonObject): boolean {
  return node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'))
}

/** A wire slot that tells the model to write its value as JSON text. */
export function asksForJsonText(node: JsonValue): boolean {
  return (
    isObject(node) &&
    admitsString(node) &&
    typeof node.description === 'string' &&
    JSON_TEXT_WORDS.test(node.description)
  )
}

function encodeNode(value: JsonValue, at: JsonValue, context: EncoderContext): Encoded {
  const node = resolve(context.root, at)
  if (!isObject(node)) return { sent: value }
  if (asksForJsonText(node)) {
    // A null the wire admits as it is may also be meant as "not provided"; the value itself is always JSON text.
    return { sent: JSON.stringify(value) }
  }
  const branches = [node.anyOf, node.oneOf].find(Array.isArray)
  if (branches !== undefined) return encodeUnion(value, node, branches, context)
  if (isObject(value)) return encodeObject(value, node, context)
  if (Array.isArray(value)) return encodeArray(value, node, context)
  return { sent: value }
}

function encodeUnion(
  value: JsonValue,
  node: JsonObject,
  branches: readonly JsonValue[],
  context: EncoderContext,
): Encoded {
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = node
  const candidates: JsonValue[] = []
  const reasons: string[] = []
  for (const branch of branches) {
    const written = isObject(branch) ? { ...siblings, ...branch } : branch
    const encoded = encodeNode(value, written, context)
    if ('unsendable' in encoded) reasons.push(encoded.unsendable)
    // Written for this branch, so valid under it (and under the whole node: a oneOf takes exactly one branch).
    else if (
      context.check.accepts(written, encoded.sent) &&
      context.check.accepts(node, encoded.sent) &&
      !candidates.some((candidate) => JSON.stringify(candidate) === JSON.stringify(encoded.sent))
    )
      candidates.push(encoded.sent)
  }
  if (candidates.length === 0)
    return {
      unsendable:
        reasons[0] ?? `${JSON.stringify(value)} fits no branch of ${JSON.stringify(node).slice(0, 200)}`,
    }
  return { sent: candidates[context.pick(candidates.length)]! }
}

export function wireProperty(node: JsonObject, key: string): JsonValue | undefined {
  const properties = isObject(node.properties) ? node.properties : {}
  if (Object.hasOwn(properties, key)) return properties[key]!
  const additional = node.additionalProperties
  if (additional === false) return undefined
  return additional === undefined ? true : additional
}

/** A strict-mode object: closed, and every declared key required. Elsewhere a missing required key means another branch. */
function listsEveryKey(node: JsonObject): boolean {
  if (node.additionalProperties !== false || !Array.isArray(node.required)) return false
  const required = new Set(node.required)
  return Object.keys(isObject(node.properties) ? node.properties : {}).every((key) => required.has(key))
}

/**
 * The wire name of a value's key in this wire object: the name the route renamed it to, where that name is one of this
 * object's wire keys (renames are reported per declared location, and a key may keep its name elsewhere).
 */
export function wireKeyOf(
  key: string,
  node: JsonObject,
  renames: ReadonlyMap<string, readonly string[]>,
): string {
  const properties = isObject(node.properties) ? node.properties : {}
  if (Object.hasOwn(properties, key)) return key
  return renames.get(key)?.find((name) => Object.hasOwn(properties, name)) ?? key
}

function spellsWireName(key: string, renames: ReadonlyMap<string, readonly string[]>): boolean {
  for (const names of renames.values()) if (names.includes(key)) return true
  return false
}

function encodeObject(value: JsonObject, node: JsonObject, context: EncoderContext): Encoded {
  const sent: JsonObject = {}
  const put = (key: string, child: JsonValue): void => {
    Object.defineProperty(sent, key, { value: child, enumerable: true, writable: true, configurable: true })
  }
  for (const [key, child] of Object.entries(value)) {
    const wireKey = wireKeyOf(key, node, context.renames)
    // Wire names are chosen apart from every key the document declares, so a key of the value spelled like one is an
    // extra key; it would read back as the key renamed to it: the wire cannot say it.
    if (!context.renames.has(key) && spellsWireName(key, context.renames))
      return { unsendable: `the extra key ${JSON.stringify(key)} is the wire name of a renamed key` }
    if (Object.hasOwn(sent, wireKey))
      return {
        unsendable: `${JSON.stringify(key)} goes out as ${JSON.stringify(wireKey)}, a key the value also carries`,
      }
    const schema = wireProperty(node, wireKey)
    if (schema === undefined)
      return { unsendable: `the wire object closes out the key ${JSON.stringify(key)}` }
    const encoded = encodeNode(child, schema, { ...context, path: [...context.path, key] })
    if ('unsendable' in encoded) return encoded
    put(wireKey, encoded.sent)
  }
  if (!listsEveryKey(node)) return { sent }
  // A strict wire object requires every key it declares: "not provided" can only be written as null.
  for (const key of node.required as string[]) {
    if (Object.hasOwn(sent, key)) continue
    if (!context.check.accepts(wireProperty(node, key) ?? true, null))
      return {
        unsendable: `the wire requires ${JSON.stringify(key)}, which the value leaves out, and it takes no null`,
      }
    put(key, null)
    context.filled.push([...context.path, key])
  }
  return { sent }
}

export function wireItem(node: JsonObject, index: number): JsonValue {
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined
  if (tuple === undefined) return (node.items as JsonValue | undefined) ?? true
  if (index < tuple.length) return tuple[index]!
  const rest = Array.isArray(node.prefixItems) ? node.items : node.additionalItems
  return (rest as JsonValue | undefined) ?? true
}

function encodeArray(value: readonly JsonValue[], node: JsonObject, context: EncoderContext): Encoded {
  const sent: JsonValue[] = []
  for (const [index, item] of value.entries()) {
    const encoded = encodeNode(item, wireItem(node, index), {
      ...context,
      path: [...context.path, String(index)],
    })
    if ('unsendable' in encoded) return encoded
    sent.push(encoded.sent)
  }
  return { sent }
}

/** `value` (declared-shaped arguments) as the model writes it for the wire root; checked against the whole wire. */
export function encodeForWire(value: JsonValue, context: EncoderContext): Encoded {
  const encoded = encodeNode(value, context.root, context)
  if ('unsendable' in encoded) return encoded
  if (!context.check.accepts(context.root, encoded.sent))
    return { unsendable: `${JSON.stringify(encoded.sent).slice(0, 200)} does not meet the wire schema` }
  return encoded
}
