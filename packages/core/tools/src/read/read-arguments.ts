import { toPointer } from '../json/json-pointer.ts'
import { defineOwn, isJsonObject, type JsonValue } from '../json/json-value.ts'
import type { WorkMeter } from '../json/work-meter.ts'
import { NO_READING_RULES, type ReadingRules } from '../projection/reading-rules.ts'
import type { Decoder } from '../projection/types.ts'
import { fitsShape } from './declared-shape.ts'
import { ARRAY, NULL, NUMBER, OBJECT, STRING } from './json-type-bits.ts'
import { SlotShapes } from './slot-shape.ts'
import type { ArgumentViolation } from './tool-args-error.ts'
import { carriesRenamedKey, decoderFor, IDENTITY } from './union-reading.ts'

/**
 * Reads wire-shaped arguments back into the declared shape in one pass, without a validator: the exact inverse of
 * what projection encoded (its `Decoder`), plus the one tolerance the declared schema itself licenses — a string in a
 * slot that admits an object or array but no string, holding that container as JSON text, is parsed. A slot that
 * admits a string is never touched, so arguments that already match the declared schema come back unchanged.
 *
 * Each value node is visited once on an explicit work stack, children before their container, and a container is
 * copied only when a child's reading differs (copy-on-write up the path); unions are decided by the value's type
 * and, for an object, the keys it has (`union-reading.ts`), never by trying readings. Arguments are never mutated:
 * DSH deep-freezes them.
 */
type Slot = JsonValue | null

/** Where a reading goes: the container being read (or the result), at `key`. */
interface Sink {
  receive(key: string | number, reading: unknown): void
}

/** One value to read. Plain data, no closures: a call allocates a step per value that may change, nothing more. */
interface ReadStep {
  readonly value: unknown
  readonly decoder: Decoder
  /** The declared schema node governing this value, or `null` where the reading follows no single one. */
  readonly slot: Slot
  readonly sink: Sink
  readonly key: string | number
}

/** An object whose children are being read; finished (copied only if a child changed) after all of them. */
type ObjectDecoder = Extract<Decoder, { kind: 'object' }>

class PendingObject implements Sink {
  private changes: Map<string, unknown> | undefined
  /** Set when a synthetic `null` ("not provided") was seen: the copy leaves those keys out. */
  dropsNull = false
  /** Keys whose `null` a reading rule reads as "not provided" (`reading-rules.ts`): the copy leaves them out too. */
  absent: Set<string> | undefined = undefined
  /** Set when a key the route renamed was seen: the copy has the declared key instead. */
  renames = false
  private readonly value: Record<string, unknown>
  private readonly decoder: ObjectDecoder | undefined
  readonly sink: Sink
  readonly key: string | number

  constructor(
    value: Record<string, unknown>,
    decoder: ObjectDecoder | undefined,
    sink: Sink,
    key: string | number,
  ) {
    this.value = value
    this.decoder = decoder
    this.sink = sink
    this.key = key
  }

  receive(key: string | number, reading: unknown): void {
    if (reading === this.value[key as string]) return
    this.changes ??= new Map()
    this.changes.set(key as string, reading)
  }

  finish(): void {
    const { value, changes, decoder } = this
    if (changes === undefined && !this.dropsNull && !this.renames && this.absent === undefined) {
      this.sink.receive(this.key, value)
      return
    }
    const copy: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      if (this.dropsNull && value[key] === null && decoder?.syntheticNull.has(key)) continue
      if (this.absent?.has(key)) continue
      const declared = this.renames ? (decoder?.renamed?.get(key) ?? key) : key
      defineOwn(copy, declared, changes?.has(key) ? changes.get(key) : value[key])
    }
    this.sink.receive(this.key, copy)
  }
}

class PendingArray implements Sink {
  private items: unknown[] | undefined
  private readonly value: readonly unknown[]
  readonly sink: Sink
  readonly key: string | number

  constructor(value: readonly unknown[], sink: Sink, key: string | number) {
    this.value = value
    this.sink = sink
    this.key = key
  }

  receive(key: string | number, reading: unknown): void {
    const index = key as number
    if (reading === this.value[index]) return
    this.items ??= [...this.value]
    this.items[index] = reading
  }

  finish(): void {
    this.sink.receive(this.key, this.items ?? this.value)
  }
}

type Step = ReadStep | PendingObject | PendingArray

type JsonObjectNode = Exclude<ReturnType<SlotShapes['containerOf']>, null>

/** RFC 8259's number grammar: the strings `numericStrings` reads as numbers (no `Infinity`, hex, or spaces). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** With a lenient rule on, an object's every key is looked at. */
const EVERY_KEY = Object.freeze({ keys: [] as readonly string[], others: true })

/**
 * A call that carries, in one object, a key the route renamed and the declared key it reads back to: two values for
 * one argument, and no way to tell which the model meant. Reading refuses it rather than keep one silently; the
 * contract reports it as a `ToolArgsError`.
 */
export class ConflictingKeysError extends Error {
  override readonly name = 'ConflictingKeysError'
  readonly violation: ArgumentViolation

  constructor(pointer: string, wireKey: string, declaredKey: string) {
    const message = `carries both ${JSON.stringify(wireKey)} (the name the route sent for ${JSON.stringify(declaredKey)}) and ${JSON.stringify(declaredKey)} itself; send one of them`
    super(message)
    this.violation = { pointer, keyword: 'renamed', message }
  }
}

/** The JSON pointer of the value a step sends to `sink` under `key`, from the chain of containers above it. */
function pointerOf(sink: Sink, key: string | number): string {
  const keys: (string | number)[] = [key]
  for (let at = sink; at instanceof PendingObject || at instanceof PendingArray; at = at.sink)
    keys.push(at.key)
  keys.pop()
  return toPointer(keys.reverse())
}

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
  private readonly rules: ReadingRules
  /** Some rule reads a value the decoder and the declared slots alone would leave: every key needs a look. */
  private readonly lenient: boolean

  constructor(shapes: SlotShapes, meter: WorkMeter | undefined, rules: ReadingRules) {
    this.shapes = shapes
    this.meter = meter
    this.rules = rules
    this.lenient = rules.nullAsAbsent || rules.numericStrings
  }

  run(): void {
    const { stack } = this
    while (stack.length > 0) {
      const step = stack.pop()!
      if (step instanceof PendingObject || step instanceof PendingArray) step.finish()
      else this.read(step)
    }
  }

  private read(step: ReadStep): void {
    this.meter?.count('value-node')
    const { value, slot, sink, key } = step
    const kind = kindOf(value)
    const decoder =
      kind === OBJECT && this.fitsKeptBranch(step.decoder, value as Record<string, unknown>)
        ? IDENTITY
        : decoderFor(step.decoder, kind, value)
    if (kind === STRING) {
      if (decoder.kind === 'json-text') {
        sink.receive(key, parseJsonText(value))
        return
      }
      if (decoder.kind === 'json-text-of') {
        const length = (value as string).length
        // Valid as sent for a branch that takes strings as they are: stock DSH hands it over so, and so does reading.
        if (
          decoder.keptAsIs.some((node) => fitsShape(value, this.shapes.shapeOf(node), length, this.meter))
        ) {
          sink.receive(key, value)
          return
        }
        const parsed = parseJsonText(value)
        const { declared } = decoder
        const shape = declared === undefined ? undefined : this.shapes.shapeOf(declared)
        const fits = parsed !== value && fitsShape(parsed, shape, length, this.meter)
        sink.receive(key, fits ? parsed : value)
        return
      }
      if (this.readsAsNumber(value as string, slot)) {
        sink.receive(key, Number(value))
        return
      }
      const parsed = this.shapes.parsesStrings(slot)
        ? parseContainer(value as string, this.shapes.admits(slot!))
        : undefined
      if (parsed === undefined) {
        sink.receive(key, value)
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
    sink.receive(key, value)
  }

  /**
   * Whether an object at a union fits, as it is, a branch the route sent unchanged: it is then valid as the model sent
   * it and stock DSH hands it over so, and another branch's decoding (JSON text beside a string, say) would change it.
   * The check is a bounded shape match per such union node (`fitsShape`, budgeted by the object's key count).
   */
  private fitsKeptBranch(decoder: Decoder, value: Record<string, unknown>): boolean {
    if (decoder.kind !== 'union' || !isJsonObject(decoder.declared)) return false
    const declaredBranches = decoder.declared.anyOf ?? decoder.declared.oneOf
    if (!Array.isArray(declaredBranches)) return false
    // A key another branch was renamed to stands for that branch's declared key: an open branch taking it as an extra
    // key is not what the wire said (a declared extra key spelled like a wire name has no way onto this wire).
    if (carriesRenamedKey(decoder, value)) return false
    for (const [index, branch] of decoder.branches.entries()) {
      if (branch.kind !== 'identity') continue
      const types = decoder.types?.[index]
      if (types !== undefined && !types.includes('object')) continue
      const declared = declaredBranches[index]
      if (declared === undefined) continue
      if (fitsShape(value, this.shapes.shapeOf(declared), Object.keys(value).length, this.meter)) return true
    }
    return false
  }

  /** `numericStrings`: `text` spells a JSON number and the declared slot admits numbers but no string. */
  private readsAsNumber(text: string, slot: Slot): boolean {
    if (!this.rules.numericStrings || slot === null || !JSON_NUMBER.test(text)) return false
    const admits = this.shapes.admits(slot)
    return (admits & STRING) === 0 && (admits & NUMBER) !== 0 && Number.isFinite(Number(text))
  }

  /** `nullAsAbsent`: `null` under an optional key whose declared schema does not admit null. */
  private readsAsAbsent(container: JsonObjectNode | null, key: string, slot: Slot): boolean {
    if (!this.rules.nullAsAbsent || container === null || slot === null) return false
    const required = container.required
    if (Array.isArray(required) && required.includes(key)) return false
    return (this.shapes.admits(slot) & NULL) === 0
  }

  /** Whether reading `value` at `slot` with no decoding can change it: a container to walk, or a string to parse. */
  private mayChange(value: unknown, slot: Slot): boolean {
    if (slot === null) return false
    const kind = kindOf(value)
    if (kind === STRING) return this.shapes.parsesStrings(slot) || this.readsAsNumber(value as string, slot)
    return kind !== 0 && this.looksBelow(this.shapes.containerOf(slot, kind))
  }

  /** Whether a container's values need a look: a slot below may change, or a lenient rule reads any of them. */
  private looksBelow(container: JsonObjectNode | null): boolean {
    return container !== null && (this.lenient || this.shapes.lookBelow(container))
  }

  private readObject(step: ReadStep, value: Record<string, unknown>, decoder: Decoder): void {
    const object = decoder.kind === 'object' ? decoder : undefined
    const container = this.shapes.containerOf(step.slot, OBJECT)
    // Without decoding, only the keys the declared schema says may change need a look (usually few, often none).
    const watch =
      object === undefined && container !== null
        ? this.lenient
          ? EVERY_KEY
          : this.shapes.watched(container)
        : undefined
    if (object === undefined && (watch === undefined || (watch.keys.length === 0 && !watch.others))) {
      step.sink.receive(step.key, value)
      return
    }
    const keys = watch === undefined || watch.others ? Object.keys(value) : watch.keys
    let pending: PendingObject | undefined
    const start = this.stack.length
    const renamed = object?.renamed
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) continue
      const child = value[key]
      // `properties` and `syntheticNull` are keyed by the wire key; the declared schema by the declared one.
      const declaredKey = renamed?.get(key)
      if (declaredKey !== undefined) {
        if (Object.hasOwn(value, declaredKey))
          throw new ConflictingKeysError(pointerOf(step.sink, step.key), key, declaredKey)
        pending ??= new PendingObject(value, object, step.sink, step.key)
        pending.renames = true
      }
      if (child === null && object?.syntheticNull.has(key)) {
        pending ??= new PendingObject(value, object, step.sink, step.key)
        pending.dropsNull = true
        continue
      }
      const childDecoder = object === undefined ? IDENTITY : (object.properties.get(key) ?? object.additional)
      const childSlot = container === null ? null : SlotShapes.property(container, declaredKey ?? key)
      if (child === null && this.readsAsAbsent(container, declaredKey ?? key, childSlot)) {
        pending ??= new PendingObject(value, object, step.sink, step.key)
        pending.absent ??= new Set()
        pending.absent.add(key)
        continue
      }
      if (childDecoder.kind === 'identity' && !this.mayChange(child, childSlot)) continue
      pending ??= new PendingObject(value, object, step.sink, step.key)
      this.stack.push({ value: child, decoder: childDecoder, slot: childSlot, sink: pending, key })
    }
    // Nothing below can change and no null to drop: the value as it is, with nothing allocated.
    if (pending === undefined) {
      step.sink.receive(step.key, value)
      return
    }
    // The container finishes after its children: it goes below them on the stack.
    this.stack.splice(start, 0, pending)
  }

  private readArray(step: ReadStep, value: unknown[], decoder: Decoder): void {
    const array = decoder.kind === 'array' ? decoder : undefined
    const container = this.shapes.containerOf(step.slot, ARRAY)
    if (array === undefined && !this.looksBelow(container)) {
      step.sink.receive(step.key, value)
      return
    }
    let pending: PendingArray | undefined
    for (const [index, item] of value.entries()) {
      const childDecoder = array === undefined ? IDENTITY : (array.prefix[index] ?? array.items)
      const childSlot = container === null ? null : SlotShapes.item(container, index)
      if (childDecoder.kind === 'identity' && !this.mayChange(item, childSlot)) continue
      if (pending === undefined) {
        pending = new PendingArray(value, step.sink, step.key)
        this.stack.push(pending)
      }
      this.stack.push({ value: item, decoder: childDecoder, slot: childSlot, sink: pending, key: index })
    }
    if (pending === undefined) step.sink.receive(step.key, value)
  }
}

/** `args` read back into the declared shape (`root` is the declared schema); the same value when nothing changes. */
export function readArguments(
  args: unknown,
  decoder: Decoder,
  shapes: SlotShapes,
  root: JsonValue | null,
  meter?: WorkMeter,
  rules: ReadingRules = NO_READING_RULES,
): unknown {
  let result: unknown = args
  const reader = new Reader(shapes, meter, rules)
  reader.stack.push({
    value: args,
    decoder,
    slot: root,
    key: '',
    sink: { receive: (_key, value) => (result = value) },
  })
  reader.run()
  return result
}

const NO_SHAPES = new SlotShapes({})

/** The projection's decoding alone (no slot of the declared schema consulted): the inverse of its encodings. */
export function decodeValue(value: unknown, decoder: Decoder, meter?: WorkMeter): unknown {
  return readArguments(value, decoder, NO_SHAPES, null, meter)
}
