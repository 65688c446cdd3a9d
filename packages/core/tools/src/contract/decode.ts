import { defineOwn } from '../json-value.ts'
import type { Decoder } from '../projection/types.ts'

/**
 * Reads wire-shaped arguments back into the declared shape: the exact inverse of what projection encoded. Returns
 * every reading a union allows (usually one); the contract keeps the first that validates. Never mutates: the
 * arguments DSH hands a tool are deep-frozen, so changed containers are copies and unchanged ones are reused.
 */
const MAX_READINGS = 16

function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    // Not JSON text: a plain string is itself a JSON value, and the slot takes any JSON value.
    return value
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The first `MAX_READINGS` combinations of per-position options, in order (the last position varies fastest), as
 * one choice list each. Linear in the number of positions: readings are built once at the end, not copied per key.
 */
function combinations(options: readonly (readonly unknown[])[]): number[][] {
  const varying = options.flatMap((choices, position) => (choices.length > 1 ? [position] : []))
  let total = 1
  for (const position of varying) {
    total *= options[position]!.length
    if (total >= MAX_READINGS) break
  }
  const result: number[][] = []
  for (let reading = 0; reading < Math.min(total, MAX_READINGS); reading++) {
    const choice = new Array<number>(options.length).fill(0)
    let rest = reading
    for (let i = varying.length - 1; i >= 0 && rest > 0; i--) {
      const count = options[varying[i]!]!.length
      choice[varying[i]!] = rest % count
      rest = Math.floor(rest / count)
    }
    result.push(choice)
  }
  return result
}

/** Whether any declared slot of `value` reads differently: the common case (nothing to change) costs no copy. */
function declaredSlotsChange(
  value: Record<string, unknown>,
  decoder: Extract<Decoder, { kind: 'object' }>,
): boolean {
  for (const key of decoder.syntheticNull) if (Object.hasOwn(value, key) && value[key] === null) return true
  for (const [key, child] of decoder.properties) {
    if (!Object.hasOwn(value, key)) continue
    const readings = decodeValue(value[key], child)
    if (readings.length !== 1 || readings[0] !== value[key]) return true
  }
  return false
}

function decodeObject(value: unknown, decoder: Extract<Decoder, { kind: 'object' }>): unknown[] {
  if (!isRecord(value)) return [value]
  if (decoder.additional.kind === 'identity' && !declaredSlotsChange(value, decoder)) return [value]
  const keys: string[] = []
  const options: unknown[][] = []
  let changed = false
  for (const [key, child] of Object.entries(value)) {
    if (child === null && decoder.syntheticNull.has(key)) {
      changed = true
      continue
    }
    const readings = decodeValue(child, decoder.properties.get(key) ?? decoder.additional)
    if (readings.length !== 1 || readings[0] !== child) changed = true
    keys.push(key)
    options.push(readings)
  }
  if (!changed) return [value]
  return combinations(options).map((choice) => {
    const reading: Record<string, unknown> = {}
    for (const [i, key] of keys.entries()) defineOwn(reading, key, options[i]![choice[i]!])
    return reading
  })
}

function decodeArray(value: unknown, decoder: Extract<Decoder, { kind: 'array' }>): unknown[] {
  if (!Array.isArray(value)) return [value]
  let changed = false
  // Every reading of each item counts (a union item may read several ways); the contract keeps the first that validates.
  const options = value.map((item, index) => {
    const readings = decodeValue(item, decoder.prefix[index] ?? decoder.items)
    if (readings.length !== 1 || readings[0] !== item) changed = true
    return readings
  })
  if (!changed) return [value]
  return combinations(options).map((choice) => options.map((readings, i) => readings[choice[i]!]))
}

export function decodeValue(value: unknown, decoder: Decoder): unknown[] {
  switch (decoder.kind) {
    case 'identity':
      return [value]
    case 'json-text':
      return [parseJsonText(value)]
    case 'object':
      return decodeObject(value, decoder)
    case 'array':
      return decodeArray(value, decoder)
    case 'union': {
      const readings = decoder.branches.flatMap((branch) => decodeValue(value, branch))
      // Each reading is serialized once; one that cannot be (a bigint, nesting deeper than JSON.stringify walks)
      // is compared by reference only, so deduplicating never throws.
      const seen = new Set<string>()
      const distinct = readings.filter((reading, i) => {
        if (readings.indexOf(reading) !== i) return false
        const key = serialize(reading)
        if (key === undefined) return true
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      return distinct.slice(0, MAX_READINGS)
    }
  }
}

function serialize(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}
