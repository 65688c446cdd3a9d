import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkToolParameters,
  createToolContract,
  type Decoder,
  type JsonObject,
  PROFILE_IDS,
  projectParameters,
  ToolArgsError,
} from '../src/index.ts'
import { jsonText } from '../src/json/json-value.ts'
import { DEFAULT_PROJECTION_DEPTH } from '../src/projection/index.ts'
import { decodeValue } from '../src/read/read-arguments.ts'
import { expectLinear } from './linear-time.ts'

/** The one reading the decoder makes, as a list (decoding no longer yields alternatives to validate). */
const decodeReadings = (value: unknown, decoder: Decoder): unknown[] => [decodeValue(value, decoder)]

/**
 * Depth as well as width, from 1 to 5,000 levels (DSH's own suite registers 5,000), with the leaf that needs a change
 * at the very bottom: JSON text, a stringified object, a synthetic null. Linearity is checked by counting work where
 * the code can be observed from outside (proxy traps for decoding) and by loose doubling ratios elsewhere.
 */
const TOOL = { tool: 'deep', source: 'fast-check' }
const IDENTITY: Decoder = { kind: 'identity' }
const SLOW = { timeout: 600_000 }

/** `{ next: { next: ... leaf } }` with `width - 1` string siblings per level; `depth` objects above the leaf. */
function chainValue(depth: number, width: number, leaf: unknown, wrap = (o: object) => o): unknown {
  let value = leaf
  for (let level = 0; level < depth; level++) {
    const node: Record<string, unknown> = { next: value }
    for (let i = 1; i < width; i++) node[`s${i}`] = `sibling ${i}`
    value = wrap(node)
  }
  return value
}

/** The schema of `chainValue`: `leaf` is the schema of the bottom slot. */
function chainSchema(depth: number, width: number, leaf: JsonObject): JsonObject {
  let schema: JsonObject = leaf
  for (let level = 0; level < depth; level++) {
    const properties: JsonObject = { next: schema }
    for (let i = 1; i < width; i++) properties[`s${i}`] = { type: 'string' }
    schema = { type: 'object', properties, required: ['next'] }
  }
  return schema
}

/** The decoder projection builds for an any-JSON leaf sent as JSON text, `depth` objects down. */
function chainDecoder(depth: number, leaf: Decoder, syntheticNull: readonly string[] = []): Decoder {
  let decoder = leaf
  for (let level = 0; level < depth; level++)
    decoder = {
      kind: 'object',
      properties: new Map([['next', decoder]]),
      additional: IDENTITY,
      syntheticNull: new Set(level === 0 ? syntheticNull : []),
    }
  return decoder
}

/** Wraps objects in proxies that count every read the decoder makes of them. */
function counted(): { wrap: (o: object) => object; reads: () => number } {
  let reads = 0
  const count = <T>(result: T): T => {
    reads++
    return result
  }
  const handler: ProxyHandler<object> = {
    get: (target, key, receiver) => count(Reflect.get(target, key, receiver)),
    has: (target, key) => count(Reflect.has(target, key)),
    ownKeys: (target) => count(Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (target, key) => count(Reflect.getOwnPropertyDescriptor(target, key)),
  }
  return { wrap: (o) => new Proxy(o, handler), reads: () => reads }
}

/** `value` is `chainValue(depth, width, leaf)`, compared level by level (a recursive deep-equal overflows at depth). */
function expectChain(value: unknown, depth: number, width: number, leaf: unknown): void {
  let at = value as Record<string, unknown>
  for (let level = 0; level < depth; level++) {
    expect(Object.keys(at).sort()).toEqual(
      ['next', ...Array.from({ length: width - 1 }, (_, i) => `s${i + 1}`)].sort(),
    )
    for (let i = 1; i < width; i++) expect(at[`s${i}`]).toBe(`sibling ${i}`)
    at = at.next as Record<string, unknown>
  }
  expect(at).toEqual(leaf)
}

function bottom(value: unknown, depth: number): unknown {
  let at = value
  for (let level = 0; level < depth; level++) at = (at as { next: unknown }).next
  return at
}

const depths = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 5_000 }))

describe('decoding is one pass, linear in depth and width', () => {
  it(
    'JSON text at the bottom of a chain: each node read a bounded number of times, siblings shared',
    SLOW,
    () => {
      fc.assert(
        fc.property(depths, fc.integer({ min: 1, max: 6 }), (depth, width) => {
          const probe = counted()
          const args = chainValue(depth, width, '{"x":[1,{"y":null}]}', probe.wrap)
          const readings = decodeReadings(args, chainDecoder(depth, { kind: 'json-text' }))
          expect(readings).toHaveLength(1)
          expect(bottom(readings[0], depth)).toEqual({ x: [1, { y: null }] })
          // Reads per key are a constant: a second look at a child to "see whether it changes" would double per level.
          expect(probe.reads()).toBeLessThanOrEqual(8 * depth * (width + 1))
          // Copy on write: the copies sit on the changed path only; a sibling string slot is the same value.
          if (width > 1) expect((readings[0] as Record<string, unknown>).s1).toBe('sibling 1')
        }),
        { numRuns: 30 },
      )
    },
  )

  it('a synthetic null at the bottom is dropped, and nothing above it is read twice', SLOW, () => {
    fc.assert(
      fc.property(depths, fc.integer({ min: 1, max: 6 }), (depth, width) => {
        const probe = counted()
        const leafObject = probe.wrap({ keep: 1, gone: null })
        const args = chainValue(depth, width, leafObject, probe.wrap)
        const readings = decodeReadings(args, chainDecoder(depth + 1, IDENTITY, ['gone']))
        expect(readings).toHaveLength(1)
        expect(bottom(readings[0], depth)).toEqual({ keep: 1 })
        expect(probe.reads()).toBeLessThanOrEqual(8 * (depth + 1) * (width + 2))
      }),
      { numRuns: 30 },
    )
  })

  it('doubling the depth doubles the reads (ratio, not time)', () => {
    for (const depth of [16, 256, 2_500]) {
      const reads = (d: number): number => {
        const probe = counted()
        decodeReadings(chainValue(d, 3, '[1]', probe.wrap), chainDecoder(d, { kind: 'json-text' }))
        return probe.reads()
      }
      const ratio = reads(2 * depth) / reads(depth)
      expect(ratio, `reads(${2 * depth}) / reads(${depth})`).toBeLessThanOrEqual(2.05)
    }
  })

  it('unions at every level stay linear: one reading, decided by the value type, each node read once', () => {
    /** At every level: either the value as it is, or an object whose `next` is the next level's union. */
    const unionChain = (depth: number): Decoder => {
      let decoder: Decoder = { kind: 'json-text' }
      for (let level = 0; level < depth; level++) {
        const object: Decoder = {
          kind: 'object',
          properties: new Map([['next', decoder]]),
          additional: IDENTITY,
          syntheticNull: new Set(),
        }
        decoder = { kind: 'union', branches: [IDENTITY, object] }
      }
      return decoder
    }
    const reads = (depth: number): number => {
      const probe = counted()
      const readings = decodeReadings(chainValue(depth, 2, '{"a":1}', probe.wrap), unionChain(depth))
      // An object value takes the object branch's decoding at every level, so the leaf's JSON text is parsed.
      expect(bottom(readings[0], depth)).toEqual({ a: 1 })
      return probe.reads()
    }
    expect(reads(1_000) / reads(500)).toBeLessThanOrEqual(2.1)
  })
})

describe('the whole contract at depth: root contract, projection, decoding, validation', () => {
  it('parses a stringified object 5,000 levels down, where a fallback validator asks for an object', () => {
    const depth = 5_000
    const schema = {
      type: 'object',
      properties: { root: chainSchema(depth, 2, { type: 'object', properties: { a: { type: 'number' } } }) },
    }
    const bottomPointer = `/root${'/next'.repeat(depth)}`
    // A stand-in for DSH's validateJsonSchemaValue: ajv cannot compile this chain, so the fallback decides.
    const contract = createToolContract(schema, TOOL, {
      fallbackValidator: {
        label: 'bottom must be an object',
        validate: (_schema, args) => {
          const leaf = bottom((args as { root: unknown }).root, depth)
          return typeof leaf === 'object' && leaf !== null
            ? []
            : [{ pointer: bottomPointer, keyword: 'type', message: 'must be object' }]
        },
      },
    })
    expect(contract.validatorProblem?.fallback).toBe('bottom must be an object')
    const parsed = contract.parseArguments({ root: chainValue(depth, 2, '{"a":1}') }, 'openai') as {
      root: unknown
    }
    expectChain(parsed.root, depth, 2, { a: 1 })
  })

  it('admits every depth from 1 to 5,000 and projects it for every profile without throwing', SLOW, () => {
    fc.assert(
      fc.property(depths, fc.integer({ min: 1, max: 3 }), (depth, width) => {
        const schema = {
          type: 'object',
          properties: { root: chainSchema(depth, width, { description: 'any JSON' }) },
        }
        expect(checkToolParameters(schema).violations).toEqual([])
        for (const profile of PROFILE_IDS) {
          const { wire } = projectParameters(schema as JsonObject, profile)
          expect(wire.type).toBe('object')
        }
      }),
      { numRuns: 12 },
    )
  })

  it('projects a 5,000-level schema even when called with most of the call stack already used', () => {
    let chain: JsonObject = { type: 'string' }
    for (let i = 0; i < 5_000; i++) chain = { type: 'object', properties: { a: chain }, required: ['a'] }
    const schema = { type: 'object', properties: { x: chain } }
    /** Runs `work` under `frames` frames of recursion. */
    const under = (frames: number, work: () => void): void =>
      frames === 0 ? work() : under(frames - 1, work)
    let free = 0
    try {
      for (;;) under(++free * 1_000, () => {})
    } catch {}
    // Leave about a fifth of the stack: the default bound no longer fits, the retry with a shallower one does.
    for (const profile of PROFILE_IDS) {
      let wire: JsonObject | undefined
      under(Math.floor(free * 800), () => {
        wire = projectParameters(schema, profile).wire
      })
      expect(wire?.type, profile).toBe('object')
    }
  })

  it('reads JSON text back at the bottom of any depth, through the projection cut-off as well', SLOW, () => {
    fc.assert(
      fc.property(depths, (depth) => {
        const schema = {
          type: 'object',
          properties: { root: chainSchema(depth, 2, { description: 'any JSON' }) },
        }
        const contract = createToolContract(schema, TOOL)
        const leaf = { deep: [1, 2, { three: true }] }
        // The model sends what the deepseek wire asks for: the any-JSON leaf as JSON text, and a subtree below the
        // projection's depth bound as one JSON text too.
        const cut = DEFAULT_PROJECTION_DEPTH - 1
        const wireShape =
          depth < cut
            ? { root: chainValue(depth, 2, JSON.stringify(leaf)) }
            : { root: chainValue(cut, 2, jsonText(chainValue(depth - cut, 2, leaf) as JsonObject)) }
        const normalized = contract.normalizeArguments(wireShape, 'deepseek') as { root: unknown }
        expectChain(normalized.root, depth, 2, leaf)
        if (contract.validatorProblem !== undefined) {
          expect(() => contract.parseArguments(wireShape, 'deepseek')).toThrow(/cannot be checked/)
          return
        }
        // ajv's generated code calls one function per `$ref` level: past a few hundred levels a validator that
        // compiled can still run out of stack on a call. That call is refused, naming why; it never throws anything
        // else. Up to the projection's depth bound, validation always runs.
        let parsed: { root: unknown }
        try {
          parsed = contract.parseArguments(wireShape, 'deepseek') as { root: unknown }
        } catch (error) {
          expect(depth).toBeGreaterThan(DEFAULT_PROJECTION_DEPTH)
          expect(error).toBeInstanceOf(ToolArgsError)
          expect((error as Error).message).toMatch(/could not be validated: Maximum call stack size exceeded/)
          return
        }
        expectChain(parsed.root, depth, 2, leaf)
      }),
      { numRuns: 20 },
    )
  })

  it('parses a stringified object at the bottom of a chain that ajv validates', () => {
    for (const depth of [1, 16, 64, 150]) {
      const schema = {
        type: 'object',
        properties: {
          root: chainSchema(depth, 2, { type: 'object', properties: { a: { type: 'number' } } }),
        },
      }
      const contract = createToolContract(schema, TOOL)
      expect(contract.validatorProblem).toBeUndefined()
      const sent = { root: chainValue(depth, 2, '{"a":1}') }
      expect(contract.parseArguments(sent, 'openai')).toEqual({ root: chainValue(depth, 2, { a: 1 }) })
    }
  })
})

describe('time grows linearly with depth (doubling ratios)', () => {
  const oneOfChain = (depth: number): JsonObject => {
    let node: JsonObject = { type: 'string' }
    for (let i = 0; i < depth; i++) node = { oneOf: [node, { type: 'null' }] }
    return { type: 'object', properties: { nested: node } }
  }

  it('root contract (check and detach) on DSH-style oneOf chains, 2,500 → 5,000 levels', () => {
    expectLinear('checkToolParameters', (n) => checkToolParameters(oneOfChain(n)), 2_500)
  })

  it('projection, 2,500 → 5,000 levels', () => {
    const schemas = new Map([2_500, 5_000].map((n) => [n, oneOfChain(n)]))
    expectLinear('projectParameters', (n) => projectParameters(schemas.get(n)!, 'openai'), 2_500)
  })

  it('decoding plus ajv validation of arguments that need a change at the bottom, 100 → 200 levels', () => {
    const contracts = new Map(
      [100, 200].map((n) => [
        n,
        createToolContract(
          { type: 'object', properties: { root: chainSchema(n, 2, { description: 'any JSON' }) } },
          TOOL,
        ),
      ]),
    )
    const args = new Map([100, 200].map((n) => [n, { root: chainValue(n, 2, '{"a":[1,2,3]}') }]))
    expectLinear('parseArguments', (n) => contracts.get(n)!.parseArguments(args.get(n), 'deepseek'), 100)
  })
})
