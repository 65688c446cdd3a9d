/**
 * The simulated model answer: arguments that meant `value` under the declared schema, written the way the wire schema
 * asks for them. JSON text where the projection encoded a slot, `null` for a field the route makes the model fill
 * (a widened optional, or a key a strict wire requires), and the first union branch whose wire schema takes the
 * encoded value. It follows the projection's `Decoder` and the wire schema side by side; it never looks at the
 * decoder's inverse, so a projection that forgets to say what it encoded shows up as meaning lost.
 */
import type { Decoder, JsonObject } from '@dsh-harden/tools'
import { Ajv, type ValidateFunction } from 'ajv'
import { jsonEqual } from './diff.ts'

type Schema = Readonly<Record<string, unknown>>
const IDENTITY: Decoder = { kind: 'identity' }
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// Formats are not checked: a route does not constrain the model by them, and the tool's own validator does.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false })
const validators = new WeakMap<object, ValidateFunction | null>()

/** The wire schema's validator (ajv, compiled once per schema object), or `null` when ajv cannot compile it. */
export function wireValidator(schema: JsonObject | Schema): ValidateFunction | null {
  const known = validators.get(schema)
  if (known !== undefined) return known
  let validate: ValidateFunction | null
  try {
    validate = ajv.compile(schema as object)
  } catch {
    validate = null
  }
  validators.set(schema, validate)
  return validate
}

// Unions nest only as deep as the schema does; past this the answer is taken as written.
const MAX_UNION_NESTING = 16

interface Task {
  readonly value: unknown
  readonly decoder: Decoder
  readonly wire: unknown
  readonly put: (value: unknown) => void
}

function childWire(wire: unknown, key: string): unknown {
  if (!isRecord(wire)) return {}
  if (isRecord(wire.properties) && Object.hasOwn(wire.properties, key)) return wire.properties[key]
  return isRecord(wire.additionalProperties) ? wire.additionalProperties : {}
}

function itemWire(wire: unknown, index: number): unknown {
  if (!isRecord(wire)) return {}
  const prefix = Array.isArray(wire.prefixItems)
    ? wire.prefixItems
    : Array.isArray(wire.items)
      ? wire.items
      : []
  if (index < prefix.length) return prefix[index]
  const rest = Array.isArray(wire.items) ? wire.additionalItems : wire.items
  return rest ?? {}
}

function branchesOf(wire: unknown): readonly unknown[] | undefined {
  if (!isRecord(wire)) return undefined
  return Array.isArray(wire.anyOf) ? wire.anyOf : Array.isArray(wire.oneOf) ? wire.oneOf : undefined
}

/**
 * A union's answer: the value as it is when a branch takes it unchanged (a model writes a string as a string), else the
 * first branch whose wire schema takes the branch's encoding, else the first branch's encoding.
 */
function encodeUnion(task: Task, nesting: number): unknown {
  if (task.decoder.kind !== 'union') return task.value
  const wireBranches = branchesOf(task.wire)
  let first: unknown
  let firstAdmitted: unknown
  for (const [index, branch] of task.decoder.branches.entries()) {
    const wire = wireBranches?.[index] ?? task.wire
    const encoded = encode(task.value, branch, wire, nesting + 1)
    if (index === 0) first = encoded
    const validate = isRecord(wire) ? wireValidator(wire) : null
    if (!validate?.(encoded)) continue
    if (jsonEqual(encoded, task.value)) return encoded
    if (firstAdmitted === undefined) firstAdmitted = encoded
  }
  return firstAdmitted ?? first ?? task.value
}

/** `value` written for the wire, following `decoder` and `wire` together on one explicit stack. */
export function encode(value: unknown, decoder: Decoder, wire: unknown, nesting = 0): unknown {
  let result: unknown
  const stack: Task[] = [{ value, decoder, wire, put: (written) => (result = written) }]
  while (stack.length > 0) {
    const task = stack.pop()!
    const { decoder: current, wire: node } = task
    if (current.kind === 'json-text') {
      task.put(JSON.stringify(task.value))
      continue
    }
    if (current.kind === 'union') {
      task.put(nesting >= MAX_UNION_NESTING ? task.value : encodeUnion(task, nesting))
      continue
    }
    if (Array.isArray(task.value)) {
      const items: unknown[] = []
      task.put(items)
      task.value.forEach((item, index) => {
        const child = current.kind === 'array' ? (current.prefix[index] ?? current.items) : IDENTITY
        stack.push({
          value: item,
          decoder: child,
          wire: itemWire(node, index),
          put: (v) => (items[index] = v),
        })
      })
      continue
    }
    if (isRecord(task.value)) {
      const object: Record<string, unknown> = {}
      task.put(object)
      for (const [key, item] of Object.entries(task.value)) {
        const child =
          current.kind === 'object' ? (current.properties.get(key) ?? current.additional) : IDENTITY
        object[key] = undefined
        stack.push({ value: item, decoder: child, wire: childWire(node, key), put: (v) => (object[key] = v) })
      }
      // Whatever the route makes the model fill and the declared arguments leave out, the model fills with null.
      const filled = new Set(current.kind === 'object' ? current.syntheticNull : [])
      if (isRecord(node) && Array.isArray(node.required))
        for (const key of node.required) filled.add(String(key))
      for (const key of filled) if (!Object.hasOwn(task.value, key)) object[key] = null
      continue
    }
    task.put(task.value)
  }
  return result
}
