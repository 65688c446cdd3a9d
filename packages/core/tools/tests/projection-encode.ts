import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { Decoder, JsonObject, JsonValue, ProfileId } from '../src/index.ts'
import { objectOf } from './arbitraries.ts'

/**
 * Test-side model of the wire: an ajv validator for wire schemas (so a test can check that the model could really
 * send an encoded value), and an encoder that shapes declared-valid values the way the wire schema asks, walking
 * the projection's `Decoder` (the inverse of what `parseArguments` does).
 */

const ajvOptions = { strict: false, allErrors: false, logger: false as const, validateFormats: true }
const draft07 = new Ajv(ajvOptions)
const draft2020 = new Ajv2020(ajvOptions)
addFormats.default(draft07)
addFormats.default(draft2020)
const cache = new Map<string, ValidateFunction>()

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Gemini's OpenAPI `nullable: true` read as JSON Schema: `anyOf: [schema, { type: 'null' }]` (ajv only understands
 * `nullable` beside a `type`, and throws on it beside `anyOf`).
 */
export function openApiToJsonSchema(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema)
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue
    const structural = [
      'properties',
      'items',
      'prefixItems',
      'anyOf',
      'oneOf',
      'additionalProperties',
    ].includes(key)
    const mapped =
      (key === 'properties' || key === '$defs' || key === 'definitions') && isObject(value)
        ? (objectOf(
            Object.entries(value).map(([k, v]) => [k, openApiToJsonSchema(v as JsonValue)]),
          ) as JsonObject)
        : structural
          ? openApiToJsonSchema(value as JsonValue)
          : (value as JsonValue)
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
  }
  if (node.nullable === true) {
    const { description, ...rest } = out
    return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] }
  }
  return out
}

const roots = new Map<string, string>()

/** `node` with every local `$ref` made absolute against `id` (a registered root), so a sub-schema resolves them. */
function anchored(node: JsonValue, id: string): JsonValue {
  if (Array.isArray(node)) return node.map((item) => anchored(item, id))
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(node)) {
    const mapped =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${id}${value}`
        : anchored(value as JsonValue, id)
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * Validates `value` against a wire schema, the way the route would read it; `root` is the whole wire schema a
 * sub-schema's kept `$ref`s point into.
 */
export function wireValid(wire: JsonValue, profile: ProfileId, value: unknown, root?: JsonObject): boolean {
  const ajv = profile === 'anthropic' ? draft2020 : draft07
  const convert = (node: JsonValue) => (profile === 'gemini' ? openApiToJsonSchema(node) : node)
  let schema = convert(wire)
  if (typeof schema === 'boolean') return schema
  if (root !== undefined && JSON.stringify(schema).includes('"$ref"')) {
    const rootText = `${profile === 'anthropic' ? '2020' : '07'}${JSON.stringify(root)}`
    let id = roots.get(rootText)
    if (id === undefined) {
      id = `urn:wire:${roots.size}`
      ajv.addSchema({ ...(convert(root) as JsonObject), $id: id })
      roots.set(rootText, id)
    }
    schema = anchored(schema, id)
  }
  const key = `${profile === 'anthropic' ? '2020' : '07'}${JSON.stringify(schema)}`
  let validate = cache.get(key)
  if (validate === undefined) {
    validate = ajv.compile(schema as JsonObject)
    cache.set(key, validate)
  }
  return validate(value) as boolean
}

/** The wire schema a kept `$ref` names (through a null wrapper `{ anyOf: [ref, null] }` a route widened it with). */
function throughRef(wire: JsonValue, root: JsonObject, decoder: Decoder): JsonValue {
  let at = wire
  if (
    decoder.kind !== 'union' &&
    isObject(at) &&
    Array.isArray(at.anyOf) &&
    at.anyOf.length === 2 &&
    isObject(at.anyOf[0]) &&
    typeof at.anyOf[0].$ref === 'string' &&
    JSON.stringify(at.anyOf[1]) === '{"type":"null"}'
  )
    at = at.anyOf[0]
  for (let hops = 0; hops < 64 && isObject(at) && typeof at.$ref === 'string'; hops++) {
    const segments = at.$ref
      .slice(2)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'))
    at = segments.reduce<JsonValue>(
      (node, segment) => (isObject(node) ? (node[segment] as JsonValue) : true),
      root,
    )
  }
  return at
}

/** A tiny deterministic PRNG so encoders can make choices that fast-check reproduces from a seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Encoding {
  readonly value: unknown
  /**
   * Set when the wire forces a lossy shape: a strict route requires a key the value leaves out, and the declared
   * schema already admits null there, so the model must send a null that reads back as a real null.
   */
  lossy: boolean
}

function wireProperty(wire: JsonValue, key: string): JsonValue {
  if (!isObject(wire)) return true
  const properties = wire.properties
  if (isObject(properties) && Object.hasOwn(properties, key)) return properties[key] as JsonValue
  const additional = wire.additionalProperties
  return additional === undefined || additional === false ? true : (additional as JsonValue)
}

function wireItem(wire: JsonValue, index: number): JsonValue {
  if (!isObject(wire)) return true
  if (Array.isArray(wire.prefixItems))
    return index < wire.prefixItems.length ? wire.prefixItems[index]! : ((wire.items as JsonValue) ?? true)
  if (Array.isArray(wire.items))
    return index < wire.items.length ? wire.items[index]! : ((wire.additionalItems as JsonValue) ?? true)
  return (wire.items as JsonValue) ?? true
}

function isWideningWrapper(wire: JsonValue): boolean {
  if (
    !isObject(wire) ||
    Object.keys(wire).length !== 1 ||
    !Array.isArray(wire.anyOf) ||
    wire.anyOf.length !== 2
  )
    return false
  const [inner, last] = wire.anyOf
  return (
    isObject(inner) &&
    (Array.isArray(inner.anyOf) || Array.isArray(inner.oneOf)) &&
    JSON.stringify(last) === '{"type":"null"}'
  )
}

interface EncodeContext {
  readonly profile: ProfileId
  readonly rnd: () => number
  readonly root: JsonObject
}

function encodeNode(
  value: unknown,
  decoder: Decoder,
  at: JsonValue,
  context: EncodeContext,
  state: { lossy: boolean },
): unknown {
  const { profile, rnd, root } = context
  const wire = throughRef(at, root, decoder)
  switch (decoder.kind) {
    case 'identity':
      // strict mode closes objects and requires every key: a value the declared schema allows may not fit
      if (profile === 'openai-strict' && !wireValid(wire, profile, value, root)) state.lossy = true
      return value
    case 'json-text':
      return JSON.stringify(value)
    case 'object': {
      if (!isObject(value)) return value
      const entries: [string, unknown][] = Object.entries(value).map(([key, child]) => [
        key,
        encodeNode(
          child,
          decoder.properties.get(key) ?? decoder.additional,
          wireProperty(wire, key),
          context,
          state,
        ),
      ])
      const required = isObject(wire) && Array.isArray(wire.required) ? (wire.required as string[]) : []
      const properties = isObject(wire) && isObject(wire.properties) ? Object.keys(wire.properties) : []
      // strict routes close every object: a key the declared schema left open cannot be sent there at all
      if (isObject(wire) && wire.additionalProperties === false && !wire.anyOf && !wire.oneOf)
        if (Object.keys(value).some((key) => !properties.includes(key))) state.lossy = true
      for (const key of properties) {
        if (Object.hasOwn(value, key)) continue
        if (decoder.syntheticNull.has(key)) {
          if (required.includes(key) || rnd() < 0.5) entries.push([key, null])
        } else if (required.includes(key)) {
          state.lossy = true
        }
      }
      return objectOf(entries)
    }
    case 'array':
      if (!Array.isArray(value)) return value
      return value.map((item, index) =>
        encodeNode(item, decoder.prefix[index] ?? decoder.items, wireItem(wire, index), context, state),
      )
    case 'union': {
      if (
        isWideningWrapper(wire) &&
        !(decoder.branches.length === 2 && decoder.branches[0]!.kind === 'union')
      ) {
        // widenToNullable wrapped a union that has siblings: `{ anyOf: [node, { type: 'null' }] }`
        return encodeNode(
          value,
          decoder,
          (wire as JsonObject & { anyOf: JsonValue[] }).anyOf[0]!,
          context,
          state,
        )
      }
      const branches = isObject(wire) ? (wire.anyOf ?? wire.oneOf) : undefined
      if (!Array.isArray(branches))
        throw new Error(`union decoder without a wire union: ${JSON.stringify(wire)}`)
      const candidates: unknown[] = []
      for (const [index, branch] of decoder.branches.entries()) {
        const inner = { lossy: false }
        const encoded = encodeNode(value, branch, branches[index]!, context, inner)
        if (!inner.lossy && wireValid(branches[index]!, profile, encoded, root)) candidates.push(encoded)
      }
      if (candidates.length === 0) {
        // null on a nullable union (gemini `nullable`) goes as it is; strict mode may have closed every branch
        if (profile === 'openai-strict' && !wireValid(wire, profile, value, root)) state.lossy = true
        return value
      }
      return candidates[Math.floor(rnd() * candidates.length)]
    }
  }
}

/** `value` shaped the way the wire schema of `profile` asks for it. */
export function encodeForWire(
  value: unknown,
  decoder: Decoder,
  wire: JsonObject,
  profile: ProfileId,
  seed: number,
): Encoding {
  const state = { lossy: false }
  const encoded = encodeNode(value, decoder, wire, { profile, rnd: random(seed), root: wire }, state)
  return { value: encoded, lossy: state.lossy }
}

/**
 * True when `value` holds a string at a slot the decoder may read as JSON text (any branch of a union counts):
 * such strings are documented to be parsed, so the identity property excludes them.
 */
export function hasStringAtJsonText(value: unknown, decoder: Decoder): boolean {
  switch (decoder.kind) {
    case 'identity':
      return false
    case 'json-text':
      return typeof value === 'string'
    case 'object':
      return (
        isObject(value) &&
        Object.entries(value).some(([key, child]) =>
          hasStringAtJsonText(child, decoder.properties.get(key) ?? decoder.additional),
        )
      )
    case 'array':
      return (
        Array.isArray(value) &&
        value.some((item, index) => hasStringAtJsonText(item, decoder.prefix[index] ?? decoder.items))
      )
    case 'union':
      return decoder.branches.some((branch) => hasStringAtJsonText(value, branch))
  }
}
