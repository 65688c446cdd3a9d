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

function decodeObject(value: unknown, decoder: Extract<Decoder, { kind: 'object' }>): unknown[] {
  if (!isRecord(value)) return [value]
  const entries: [string, unknown[]][] = []
  let changed = false
  for (const [key, child] of Object.entries(value)) {
    if (child === null && decoder.syntheticNull.has(key)) {
      changed = true
      continue
    }
    const options = decodeValue(child, decoder.properties.get(key) ?? decoder.additional)
    if (options.length !== 1 || options[0] !== child) changed = true
    entries.push([key, options])
  }
  if (!changed) return [value]
  if (entries.every(([, options]) => options.length === 1)) {
    const single: Record<string, unknown> = {}
    for (const [key, options] of entries) defineOwn(single, key, options[0])
    return [single]
  }
  let readings: Record<string, unknown>[] = [{}]
  for (const [key, options] of entries) {
    readings = readings
      .flatMap((reading) =>
        options.map((option) => {
          const next = { ...reading }
          defineOwn(next, key, option)
          return next
        }),
      )
      .slice(0, MAX_READINGS)
  }
  return readings
}

function decodeArray(value: unknown, decoder: Extract<Decoder, { kind: 'array' }>): unknown[] {
  if (!Array.isArray(value)) return [value]
  let changed = false
  const items = value.map((item, index) => {
    // A union inside an array item keeps its first reading; the item-level choice is rarely ambiguous.
    const decoded = decodeValue(item, decoder.prefix[index] ?? decoder.items)[0]
    if (decoded !== item) changed = true
    return decoded
  })
  return changed ? [items] : [value]
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
      const distinct = readings.filter(
        (reading, i) =>
          readings.findIndex(
            (other) => other === reading || JSON.stringify(other) === JSON.stringify(reading),
          ) === i,
      )
      return distinct.slice(0, MAX_READINGS)
    }
  }
}
