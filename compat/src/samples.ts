/**
 * Deterministic sample arguments for a declared schema: a few objects a model could legitimately send, built on one
 * explicit stack (schemas nest deeply). The generator only has to propose; the table keeps a sample only when the
 * tool's compiled validator accepts it, so an approximation here costs coverage, never a wrong verdict.
 */

import { parsePointer } from '@dsh-harden/tools'
import fc from 'fast-check'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Schema = Readonly<Record<string, unknown>>

/** How a sample chooses where the schema leaves a choice. */
export type SampleMode = 'required-only' | 'every-property' | 'alternate'

export const SAMPLE_MODES: readonly SampleMode[] = ['required-only', 'every-property', 'alternate']

const MAX_DEPTH = 8
const MAX_REF_HOPS = 16

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Strings that meet a `format` keyword (the ajv-formats definitions the tools' validators use). */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-02T03:04:05Z',
  date: '2026-01-02',
  time: '03:04:05Z',
  duration: 'P1D',
  email: 'someone@example.com',
  'idn-email': 'someone@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/a',
  'uri-reference': 'https://example.com/a',
  iri: 'https://example.com/a',
  url: 'https://example.com/a',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  regex: '^a+$',
  'json-pointer': '/a',
}

/** A string for a `pattern`, from fast-check's regex-guided arbitrary; `undefined` for constructs it cannot build. */
function patternSample(pattern: string, seed: number): string | undefined {
  try {
    const [value] = fc.sample(fc.stringMatching(new RegExp(pattern, 'u')), { seed, numRuns: 1 })
    return value
  } catch {
    return undefined
  }
}

function stringSample(schema: Schema, seed: number): string {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format] !== undefined)
    return FORMAT_SAMPLES[schema.format]!
  if (typeof schema.pattern === 'string') {
    const matched = patternSample(schema.pattern, seed)
    if (matched !== undefined) return matched
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY
  const base = seed % 2 === 0 ? 'sample text' : 'x'
  const padded = base.length >= min ? base : base + 'x'.repeat(min - base.length)
  return padded.slice(0, Math.max(min, Math.min(max, padded.length)))
}

function numberSample(schema: Schema, integer: boolean, seed: number): number {
  const low =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
      : typeof schema.minimum === 'number'
        ? schema.minimum
        : undefined
  const high =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
      : typeof schema.maximum === 'number'
        ? schema.maximum
        : undefined
  let value = low ?? (high !== undefined ? Math.min(high, 1 + seed) : 1 + seed)
  if (high !== undefined && value > high) value = high
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0)
    value = Math.ceil(value / schema.multipleOf) * schema.multipleOf
  return integer ? Math.ceil(value) : value
}

/** The schema a local `$ref` names, or `undefined` (remote or unresolved: the sample cannot follow it). */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined
  const path = parsePointer(ref.slice(1))
  if (path === undefined) return undefined
  let node: unknown = root
  for (const key of path)
    node = isSchema(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined
  return isSchema(node) ? node : node === true ? {} : undefined
}

function pick<T>(items: readonly T[], seed: number): T | undefined {
  return items.length === 0 ? undefined : items[seed % items.length]
}

interface Task {
  readonly schema: unknown
  readonly depth: number
  readonly hops: number
  readonly put: (value: Json) => void
}

class Unsatisfiable extends Error {}

/** One sample for `schema` (or `undefined` when the generator cannot propose one), chosen by `mode` and `seed`. */
export function sampleArguments(root: unknown, mode: SampleMode, seed: number): Json | undefined {
  if (!isSchema(root) && root !== true) return undefined
  let result: Json | undefined
  const stack: Task[] = [{ schema: root, depth: 0, hops: 0, put: (value) => (result = value) }]
  // xorshift32: the same choices for the same seed on every run.
  let choice = seed | 1
  const next = (): number => {
    choice ^= choice << 13
    choice ^= choice >>> 17
    choice ^= choice << 5
    return choice >>> 0
  }
  try {
    while (stack.length > 0) {
      const task = stack.pop()!
      const { depth, put } = task
      if (task.schema === true || (isSchema(task.schema) && Object.keys(task.schema).length === 0)) {
        put(mode === 'alternate' ? { any: 'json' } : 'any value')
        continue
      }
      if (!isSchema(task.schema)) throw new Unsatisfiable('false schema')
      const schema = task.schema
      if (typeof schema.$ref === 'string') {
        const target = isSchema(root) ? resolveRef(root, schema.$ref) : undefined
        if (target === undefined || task.hops >= MAX_REF_HOPS) throw new Unsatisfiable('unfollowed $ref')
        const { $ref: _ref, ...siblings } = schema
        stack.push({ schema: { ...target, ...siblings }, depth, hops: task.hops + 1, put })
        continue
      }
      if ('const' in schema) {
        put(schema.const as Json)
        continue
      }
      if (Array.isArray(schema.enum) && schema.enum.length > 0) {
        put(pick(schema.enum, mode === 'alternate' ? next() : 0) as Json)
        continue
      }
      if (Array.isArray(schema.allOf)) {
        // An intersection of object shapes is the common case (generated schemas); merge them shallowly.
        const merged: Record<string, unknown> = { ...schema, allOf: undefined }
        delete merged.allOf
        for (const part of schema.allOf) {
          if (!isSchema(part)) continue
          const resolved =
            typeof part.$ref === 'string' && isSchema(root) ? (resolveRef(root, part.$ref) ?? part) : part
          merged.properties = { ...(merged.properties as object), ...(resolved.properties as object) }
          merged.required = [
            ...((merged.required as string[]) ?? []),
            ...((resolved.required as string[]) ?? []),
          ]
          for (const [key, value] of Object.entries(resolved))
            if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value
        }
        stack.push({ schema: merged, depth, hops: task.hops, put })
        continue
      }
      const union = Array.isArray(schema.anyOf)
        ? schema.anyOf
        : Array.isArray(schema.oneOf)
          ? schema.oneOf
          : undefined
      if (union !== undefined && union.length > 0) {
        const { anyOf: _a, oneOf: _o, ...siblings } = schema
        const branches = union.filter((branch) => !(isSchema(branch) && branch.type === 'null'))
        const branch = pick(branches.length > 0 ? branches : union, mode === 'alternate' ? next() : 0)
        stack.push({
          schema: isSchema(branch) ? { ...siblings, ...branch } : branch,
          depth,
          hops: task.hops,
          put,
        })
        continue
      }
      let type = schema.type
      if (Array.isArray(type)) {
        const real = type.filter((name) => name !== 'null')
        type = pick(real.length > 0 ? real : type, mode === 'alternate' ? next() : 0)
      }
      if (type === undefined)
        type = isSchema(schema.properties) ? 'object' : schema.items !== undefined ? 'array' : 'string'
      switch (type) {
        case 'null':
          put(null)
          break
        case 'boolean':
          put(mode !== 'required-only')
          break
        case 'integer':
        case 'number':
          put(numberSample(schema, type === 'integer', seed))
          break
        case 'string':
          put(stringSample(schema, seed))
          break
        case 'array': {
          const items: Json[] = []
          put(items)
          const prefix = Array.isArray(schema.prefixItems)
            ? schema.prefixItems
            : Array.isArray(schema.items)
              ? schema.items
              : []
          const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items
          const min = typeof schema.minItems === 'number' ? schema.minItems : 0
          const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY
          const wanted =
            depth >= MAX_DEPTH ? min : Math.max(min, mode === 'required-only' ? 0 : 1, prefix.length)
          const count = Math.min(wanted, max, schema.uniqueItems === true ? Math.max(min, 1) : wanted)
          for (let index = count - 1; index >= 0; index--) {
            const itemSchema = index < prefix.length ? prefix[index] : (rest ?? {})
            stack.push({
              schema: itemSchema,
              depth: depth + 1,
              hops: task.hops,
              put: (value) => {
                items[index] = value
              },
            })
          }
          break
        }
        case 'object': {
          const object: Record<string, Json> = {}
          put(object)
          const properties = isSchema(schema.properties) ? schema.properties : {}
          const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
          const keys = Object.keys(properties).filter((key) => {
            if (required.has(key)) return true
            if (depth >= MAX_DEPTH || mode === 'required-only') return false
            return mode === 'every-property' || next() % 2 === 0
          })
          for (const key of required) if (!(key in properties)) object[key] = 'present'
          for (const key of keys.reverse())
            stack.push({
              schema: properties[key],
              depth: depth + 1,
              hops: task.hops,
              put: (value) => {
                object[key] = value
              },
            })
          break
        }
        default:
          throw new Unsatisfiable(`type ${String(type)}`)
      }
    }
  } catch (error) {
    if (error instanceof Unsatisfiable) return undefined
    throw error
  }
  return result
}

/** Up to one sample per mode, distinct, each accepted by `accepts` (the tool's compiled validator). */
export function validSamples(schema: unknown, accepts: (args: unknown) => boolean): Json[] {
  const seen = new Set<string>()
  const samples: Json[] = []
  SAMPLE_MODES.forEach((mode, index) => {
    const sample = sampleArguments(schema, mode, index + 1)
    if (sample === undefined) return
    const key = JSON.stringify(sample)
    if (seen.has(key) || !accepts(sample)) return
    seen.add(key)
    samples.push(sample)
  })
  return samples
}
