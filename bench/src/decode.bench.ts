import { createToolContract, type Decoder, type ProfileId, type ToolContract } from '@dsh-harden/tools'
import type { ValidateFunction } from 'ajv'
import type { Comparison, Side } from './harness.ts'
import { createBareAjv } from './validators.ts'

/**
 * Arguments that need reading back (issue 10, defect 1: decoding used to double its work per level): the model's
 * wire-shaped arguments through `contract.parseArguments` (decode, then the compiled validator) against bare ajv
 * validating the already-decoded arguments. Linear decoding keeps the ratio flat as depth grows; the old
 * decode-twice walk made the depth-16 row alone take about half a second per call.
 */
interface DecodeCase {
  readonly name: string
  readonly profile: ProfileId
  readonly parameters: Record<string, unknown>
  /** What the tool receives: the arguments in the declared shape. */
  readonly decoded: unknown
  /** What the model sends for this route; built from the projection's decoder unless given. */
  readonly wire?: unknown
  readonly repetitions: number
  readonly note: string
}

/** `depth` nested objects (`{ next, label }`) over an any-JSON leaf. */
function chain(depth: number): { parameters: Record<string, unknown>; decoded: unknown } {
  let schema: Record<string, unknown> = { description: 'any JSON' }
  let value: unknown = { items: [1, 2, 3], nested: { ok: true } }
  for (let level = 0; level < depth; level++) {
    schema = {
      type: 'object',
      properties: { next: schema, label: { type: 'string' } },
      required: ['next'],
    }
    value = { next: value, label: `level ${level}` }
  }
  return {
    parameters: { type: 'object', properties: { root: schema }, required: ['root'] },
    decoded: { root: value },
  }
}

/** The inverse of decoding along the decoder: JSON text wherever the wire asks for it. */
function encode(value: unknown, decoder: Decoder): unknown {
  if (decoder.kind === 'json-text') return JSON.stringify(value)
  if (decoder.kind !== 'object' || typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const [key, child] of decoder.properties)
    if (Object.hasOwn(copy, key)) copy[key] = encode(copy[key], child)
  return copy
}

function cases(): DecodeCase[] {
  const jsonText = [1, 16, 64, 256].map((depth) => ({
    name: `JSON text at depth ${depth}`,
    profile: 'deepseek' as const,
    ...chain(depth),
    repetitions: Math.max(20, Math.round(4_000 / depth)),
    note: `depth ${depth}: an any-JSON leaf under ${depth} nested objects, sent as JSON text (deepseek)`,
  }))
  return [
    ...jsonText,
    {
      name: 'stringified object',
      profile: 'deepseek',
      parameters: {
        type: 'object',
        properties: {
          options: { type: 'object', properties: { depth: { type: 'integer' }, all: { type: 'boolean' } } },
        },
      },
      decoded: { options: { depth: 2, all: true } },
      wire: { options: '{"depth":2,"all":true}' },
      repetitions: 2_000,
      note: 'stringified object: an object slot sent as JSON text by the model, parsed because the validator asked for an object',
    },
    {
      name: 'synthetic null',
      profile: 'openai-strict',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, encoding: { type: 'string' } },
        required: ['path'],
      },
      decoded: { path: 'a.txt' },
      wire: { path: 'a.txt', encoding: null },
      repetitions: 2_000,
      note: 'synthetic null: an optional field openai-strict fills with null, dropped as "not provided"',
    },
  ]
}

function loop(label: string, repetitions: number, once: () => void): Side {
  return {
    label,
    prepare: () => ({
      run: () => {
        for (let i = 0; i < repetitions; i++) once()
      },
      dispose() {},
    }),
  }
}

interface PreparedDecode {
  readonly contract: ToolContract
  readonly ajv: ValidateFunction
  readonly wire: unknown
}

/** Fails before any timing when a row would not measure what it says. */
function prepare(decodeCase: DecodeCase, bare: ReturnType<typeof createBareAjv>): PreparedDecode {
  const contract = createToolContract(decodeCase.parameters, { tool: decodeCase.name, source: 'bench' })
  if (contract.validatorProblem !== undefined)
    throw new Error(
      `decode.bench: ${decodeCase.name}: ajv cannot compile the schema (${contract.validatorProblem.construct})`,
    )
  const wire = decodeCase.wire ?? encode(decodeCase.decoded, contract.projection(decodeCase.profile).decoder)
  if (JSON.stringify(wire) === JSON.stringify(decodeCase.decoded))
    throw new Error(
      `decode.bench: ${decodeCase.name}: the wire arguments need no change, so nothing is decoded`,
    )
  const read = contract.parseArguments(wire, decodeCase.profile)
  if (JSON.stringify(read) !== JSON.stringify(decodeCase.decoded))
    throw new Error(`decode.bench: ${decodeCase.name}: parseArguments did not read the arguments back`)
  const ajv = bare(decodeCase.parameters)
  if (!ajv(decodeCase.decoded))
    throw new Error(`decode.bench: ${decodeCase.name}: bare ajv rejects the decoded arguments`)
  return { contract, ajv, wire }
}

export function decodeComparisons(): Comparison[] {
  const bare = createBareAjv()
  return cases().map((decodeCase) => {
    const { contract, ajv, wire } = prepare(decodeCase, bare)
    const { decoded, profile, repetitions } = decodeCase
    return {
      name: `needs decoding: ${decodeCase.name}`,
      opsPerSample: repetitions,
      peer: loop('bare ajv on decoded args', repetitions, () => {
        if (!ajv(decoded)) throw new Error('bare ajv rejected the decoded arguments')
      }),
      subject: loop(`parseArguments (${profile})`, repetitions, () => contract.parseArguments(wire, profile)),
      warmup: 6,
      rounds: 40,
      notes: [decodeCase.note],
    }
  })
}
