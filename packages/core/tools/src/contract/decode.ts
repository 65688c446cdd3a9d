import { defineOwn } from '../json-value.ts'
import type { Decoder } from '../projection/types.ts'

/**
 * Reads wire-shaped arguments back into the declared shape: the exact inverse of what projection encoded. Returns
 * every reading a union allows (usually one); the contract keeps the first that validates. Never mutates: the
 * arguments DSH hands a tool are deep-frozen, so changed containers are copies and unchanged ones are reused.
 *
 * One pass with an explicit work stack: each (value, decoder) pair is decoded exactly once, children before their
 * container, and a container is copied only when a child's reading differs (copy-on-write up the path). So the cost
 * is linear in depth and width, and nesting deeper than the call stack is fine.
 */
const MAX_READINGS = 16

type ObjectDecoder = Extract<Decoder, { kind: 'object' }>
type ArrayDecoder = Extract<Decoder, { kind: 'array' }>
type Readings = readonly unknown[]

interface DecodeStep {
  readonly kind: 'decode'
  readonly value: unknown
  readonly decoder: Decoder
  readonly deliver: (readings: Readings) => void
}

/** Runs after every child of a container has delivered its readings. */
interface FinishStep {
  readonly kind: 'finish'
  readonly finish: () => void
}

type Step = DecodeStep | FinishStep

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

function unchanged(readings: Readings, original: unknown): boolean {
  return readings.length === 1 && readings[0] === original
}

/**
 * The first `MAX_READINGS` combinations of per-position options, in order (the last position varies fastest), as
 * one choice list each. Linear in the number of positions: readings are built once at the end, not copied per key.
 */
function combinations(options: readonly Readings[]): number[][] {
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

/**
 * Object: only the slots the decoder can change are decoded (declared properties, or every key when undeclared keys
 * have a decoder of their own); the rest are read as they are. Synthetic nulls are dropped.
 */
function expandObject(step: DecodeStep, decoder: ObjectDecoder, stack: Step[]): void {
  const value = step.value
  if (!isRecord(value)) {
    step.deliver([value])
    return
  }
  const decoded = new Map<string, Readings>()
  let dropsNull = false
  const slots: [string, Decoder][] = []
  const consider = (key: string, child: Decoder): void => {
    if (value[key] === null && decoder.syntheticNull.has(key)) dropsNull = true
    else if (child.kind !== 'identity') slots.push([key, child])
  }
  if (decoder.additional.kind === 'identity') {
    for (const key of decoder.syntheticNull)
      if (Object.hasOwn(value, key)) consider(key, { kind: 'identity' })
    for (const [key, child] of decoder.properties) if (Object.hasOwn(value, key)) consider(key, child)
  } else {
    for (const key of Object.keys(value)) consider(key, decoder.properties.get(key) ?? decoder.additional)
  }
  stack.push({
    kind: 'finish',
    finish: () => {
      const changed = dropsNull || [...decoded].some(([key, readings]) => !unchanged(readings, value[key]))
      if (!changed) {
        step.deliver([value])
        return
      }
      const keys = Object.keys(value).filter(
        (key) => !(value[key] === null && decoder.syntheticNull.has(key)),
      )
      const options = keys.map((key) => decoded.get(key) ?? [value[key]])
      step.deliver(
        combinations(options).map((choice) => {
          const reading: Record<string, unknown> = {}
          for (const [i, key] of keys.entries()) defineOwn(reading, key, options[i]![choice[i]!])
          return reading
        }),
      )
    },
  })
  for (const [key, child] of slots) {
    stack.push({
      kind: 'decode',
      value: value[key],
      decoder: child,
      deliver: (readings) => decoded.set(key, readings),
    })
  }
}

function expandArray(step: DecodeStep, decoder: ArrayDecoder, stack: Step[]): void {
  const value = step.value
  if (!Array.isArray(value)) {
    step.deliver([value])
    return
  }
  // Every reading of each item counts (a union item may read several ways); the contract keeps the first that validates.
  const options: Readings[] = value.map((item) => [item])
  stack.push({
    kind: 'finish',
    finish: () => {
      const changed = options.some((readings, i) => !unchanged(readings, value[i]))
      step.deliver(
        changed
          ? combinations(options).map((choice) => options.map((readings, i) => readings[choice[i]!]))
          : [value],
      )
    },
  })
  for (const [index, item] of value.entries()) {
    const child = decoder.prefix[index] ?? decoder.items
    if (child.kind === 'identity') continue
    stack.push({
      kind: 'decode',
      value: item,
      decoder: child,
      deliver: (readings) => (options[index] = readings),
    })
  }
}

/** Every branch reads the same value; readings are kept in branch order, each distinct reference once. */
function expandUnion(step: DecodeStep, branches: readonly Decoder[], stack: Step[]): void {
  const perBranch: Readings[] = branches.map(() => [])
  stack.push({
    kind: 'finish',
    finish: () => {
      // Compared by reference (Object.is), never serialized: a deep reading costs nothing extra to deduplicate.
      const distinct = [...new Set(perBranch.flat())]
      step.deliver(distinct.slice(0, MAX_READINGS))
    },
  })
  for (const [index, branch] of branches.entries()) {
    stack.push({
      kind: 'decode',
      value: step.value,
      decoder: branch,
      deliver: (readings) => (perBranch[index] = readings),
    })
  }
}

function expand(step: DecodeStep, stack: Step[]): void {
  const { decoder } = step
  switch (decoder.kind) {
    case 'identity':
      step.deliver([step.value])
      return
    case 'json-text':
      step.deliver([parseJsonText(step.value)])
      return
    case 'object':
      expandObject(step, decoder, stack)
      return
    case 'array':
      expandArray(step, decoder, stack)
      return
    case 'union':
      expandUnion(step, decoder.branches, stack)
      return
  }
}

export function decodeValue(value: unknown, decoder: Decoder): Readings {
  let result: Readings = [value]
  const stack: Step[] = [{ kind: 'decode', value, decoder, deliver: (readings) => (result = readings) }]
  while (stack.length > 0) {
    const step = stack.pop()!
    if (step.kind === 'finish') step.finish()
    else expand(step, stack)
  }
  return result
}
