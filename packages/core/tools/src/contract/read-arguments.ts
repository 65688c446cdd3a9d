import { defineOwn, type JsonValue } from '../json-value.ts'
import type { Decoder } from '../projection/types.ts'
import type { WorkMeter } from '../work-meter.ts'
import { ARRAY, OBJECT, SlotShapes, STRING } from './slot-shape.ts'
import { decoderFor, IDENTITY, typeBit } from './union-reading.ts'

/**
 * Reads wire-shaped arguments back into the declared shape in one pass, without a validator: the exact inverse of
 * what projection encoded (its `Decoder`), plus the one tolerance the declared schema itself licenses — a string in a
 * slot that admits an object or array but no string, holding that container as JSON text, is parsed. A slot that
 * admits a string is never touched, so arguments that already match the declared schema come back unchanged.
 *
 * Each value node is visited once on an explicit work stack, children before their container, and a container is
 * copied only when a child's reading differs (copy-on-write up the path); unions are decided by the value's type
 * (`union-reading.ts`), never by trying readings. Arguments are never mutated: DSH deep-freezes them.
 */
type Slot = JsonValue | null

interface ReadStep {
  readonly kind: 'read'
  readonly value: unknown
  readonly decoder: Decoder
  /** The declared schema node governing this value, or `null` where the reading follows no single one. */
  readonly slot: Slot
  readonly deliver: (value: unknown) => void
}

interface FinishStep {
  readonly kind: 'finish'
  readonly finish: () => void
}

type Step = ReadStep | FinishStep

function kindOf(value: unknown): number {
  if (typeof value === 'string') return STRING
  if (Array.isArray(value)) return ARRAY
  if (typeof value === 'object' && value !== null) return OBJECT
  return 0
}

function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    // Not JSON text: a plain string is itself a JSON value, and the slot takes any JSON value.
    return value
  }
}

/** `text` parsed when it is JSON text of a container the slot admits (`admits` as bits), else `undefined`. */
function parseContainer(text: string, admits: number): object | undefined {
  const first = text.trimStart()[0]
  if (!((first === '{' && admits & OBJECT) || (first === '[' && admits & ARRAY))) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return kindOf(parsed) & admits & (OBJECT | ARRAY) ? (parsed as object) : undefined
  } catch {
    return undefined
  }
}

class Reader {
  readonly stack: Step[] = []
  private readonly shapes: SlotShapes
  private readonly meter: WorkMeter | undefined

  constructor(shapes: SlotShapes, meter: WorkMeter | undefined) {
    this.shapes = shapes
    this.meter = meter
  }

  read(step: ReadStep): void {
    this.meter?.count('value-node')
    const { value, slot } = step
    const kind = kindOf(value)
    const decoder = decoderFor(step.decoder, kind)
    if (kind === STRING) {
      if (decoder.kind === 'json-text') {
        step.deliver(parseJsonText(value))
        return
      }
      if (decoder.kind === 'json-text-of') {
        const parsed = parseJsonText(value)
        step.deliver(typeBit(parsed) & decoder.admits ? parsed : value)
        return
      }
      const admits = slot === null ? 0 : this.shapes.admits(slot)
      const parsed = admits & STRING ? undefined : parseContainer(value as string, admits)
      if (parsed === undefined) {
        step.deliver(value)
        return
      }
      // The container is read like one the model sent as it is: its slots may carry encodings of their own.
      this.stack.push({ ...step, value: parsed })
      return
    }
    if (kind === OBJECT) {
      this.readObject(step, value as Record<string, unknown>, decoder as Decoder)
      return
    }
    if (kind === ARRAY) {
      this.readArray(step, value as unknown[], decoder as Decoder)
      return
    }
    step.deliver(value)
  }

  /** Whether reading `value` at `slot` with no decoding can change it: a container to walk, or a string to parse. */
  private mayChange(value: unknown, slot: Slot): boolean {
    if (slot === null) return false
    const kind = kindOf(value)
    if (kind === STRING) {
      const admits = this.shapes.admits(slot)
      return (admits & STRING) === 0 && (admits & (OBJECT | ARRAY)) !== 0
    }
    return kind !== 0
  }

  private readObject(step: ReadStep, value: Record<string, unknown>, decoder: Decoder): void {
    const object = decoder.kind === 'object' ? decoder : undefined
    if (object === undefined && step.slot === null) {
      step.deliver(value)
      return
    }
    const read = new Map<string, unknown>()
    let dropsNull = false
    const children: ReadStep[] = []
    for (const key of Object.keys(value)) {
      const child = value[key]
      if (child === null && object?.syntheticNull.has(key)) {
        dropsNull = true
        continue
      }
      const childDecoder = object === undefined ? IDENTITY : (object.properties.get(key) ?? object.additional)
      const childSlot = this.shapes.below(step.slot, OBJECT, key)
      if (childDecoder.kind === 'identity' && !this.mayChange(child, childSlot)) continue
      children.push({
        kind: 'read',
        value: child,
        decoder: childDecoder,
        slot: childSlot,
        deliver: (v) => read.set(key, v),
      })
    }
    this.stack.push({
      kind: 'finish',
      finish: () => {
        const changed = dropsNull || [...read].some(([key, reading]) => reading !== value[key])
        if (!changed) {
          step.deliver(value)
          return
        }
        const copy: Record<string, unknown> = {}
        for (const key of Object.keys(value)) {
          if (value[key] === null && object?.syntheticNull.has(key)) continue
          defineOwn(copy, key, read.has(key) ? read.get(key) : value[key])
        }
        step.deliver(copy)
      },
    })
    this.stack.push(...children)
  }

  private readArray(step: ReadStep, value: unknown[], decoder: Decoder): void {
    const array = decoder.kind === 'array' ? decoder : undefined
    if (array === undefined && step.slot === null) {
      step.deliver(value)
      return
    }
    const items = [...value]
    let changed = false
    this.stack.push({ kind: 'finish', finish: () => step.deliver(changed ? items : value) })
    for (const [index, item] of value.entries()) {
      const childDecoder = array === undefined ? IDENTITY : (array.prefix[index] ?? array.items)
      const childSlot = this.shapes.below(step.slot, ARRAY, index)
      if (childDecoder.kind === 'identity' && !this.mayChange(item, childSlot)) continue
      this.stack.push({
        kind: 'read',
        value: item,
        decoder: childDecoder,
        slot: childSlot,
        deliver: (reading) => {
          if (reading === item) return
          items[index] = reading
          changed = true
        },
      })
    }
  }
}

/** `args` read back into the declared shape (`root` is the declared schema); the same value when nothing changes. */
export function readArguments(
  args: unknown,
  decoder: Decoder,
  shapes: SlotShapes,
  root: JsonValue | null,
  meter?: WorkMeter,
): unknown {
  let result: unknown = args
  const reader = new Reader(shapes, meter)
  reader.stack.push({ kind: 'read', value: args, decoder, slot: root, deliver: (value) => (result = value) })
  while (reader.stack.length > 0) {
    const step = reader.stack.pop()!
    if (step.kind === 'finish') step.finish()
    else reader.read(step)
  }
  return result
}

const NO_SHAPES = new SlotShapes({})

/** The projection's decoding alone (no slot of the declared schema consulted): the inverse of its encodings. */
export function decodeValue(value: unknown, decoder: Decoder, meter?: WorkMeter): unknown {
  return readArguments(value, decoder, NO_SHAPES, null, meter)
}
