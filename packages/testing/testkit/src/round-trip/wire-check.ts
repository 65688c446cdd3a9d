import { createRequire } from 'node:module'
import type { JsonObject, JsonValue, ProfileId } from './tools.ts'

/**
 * Whether a value is one the route would take for a wire schema: ajv (the copy the contract compiler installs; testkit
 * has no ajv of its own yet) over the wire schema as the route reads it. Gemini's OpenAPI `nullable: true` is read as
 * "or null". The model-side encoder uses it to pick among union branches the way a model must: only branches its
 * value fits.
 */
const requireFromTools = createRequire(new URL('../../../../core/tools/package.json', import.meta.url))

type Validate = (value: unknown) => boolean
interface AjvLike {
  compile(schema: unknown): Validate
  addSchema(schema: unknown): unknown
}
type AjvClass = new (options: object) => AjvLike

const options = { strict: false, allErrors: false, logger: false, validateFormats: false }
const Draft07 = (requireFromTools('ajv') as { Ajv: AjvClass }).Ajv
const Draft2020 = (requireFromTools('ajv/dist/2020.js') as { Ajv2020: AjvClass }).Ajv2020

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema: the node or `null`. */
function withoutNullable(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(withoutNullable)
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue
    const mapped =
      key === 'properties' || key === '$defs' || key === 'definitions'
        ? isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withoutNullable(schema)]))
          : value
        : typeof value === 'object' && value !== null
          ? withoutNullable(value)
          : value
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
  }
  return node.nullable === true ? { anyOf: [out, { type: 'null' }] } : out
}

/** `node` with each local `$ref` made absolute against `id`, so a subschema resolves them in the registered root. */
function anchored(node: JsonValue, id: string): JsonValue {
  if (Array.isArray(node)) return node.map((item) => anchored(item, id))
  if (!isObject(node)) return node
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(node)) {
    const mapped =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${id}${value}`
        : anchored(value, id)
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true })
  }
  return out
}

let roots = 0

export class WireCheck {
  private readonly cache = new Map<string, Validate>()
  private readonly gemini: boolean
  private readonly engine: AjvLike
  private readonly root: JsonObject
  private id: string | undefined

  constructor(profile: ProfileId, root: JsonObject) {
    this.gemini = profile === 'gemini'
    // Anthropic reads JSON Schema 2020-12; the other routes' wires are draft-07 shaped.
    this.engine = profile === 'anthropic' ? new Draft2020(options) : new Draft07(options)
    this.root = root
  }

  /** `value` valid under `node`, a subschema of the wire root (its `$ref`s resolve against that root). */
  accepts(node: JsonValue, value: unknown): boolean {
    if (typeof node === 'boolean') return node
    const key = JSON.stringify(node)
    let validate = this.cache.get(key)
    if (validate === undefined) {
      validate = this.compile(node)
      this.cache.set(key, validate)
    }
    return validate(value)
  }

  private compile(node: JsonValue): Validate {
    const schema = this.gemini ? withoutNullable(node) : node
    if (node === this.root || !JSON.stringify(schema).includes('"$ref"')) return this.engine.compile(schema)
    if (this.id === undefined) {
      this.id = `urn:round-trip:${roots++}`
      this.engine.addSchema({
        ...(this.gemini ? (withoutNullable(this.root) as JsonObject) : this.root),
        $id: this.id,
      })
    }
    return this.engine.compile(anchored(schema, this.id))
  }
}
