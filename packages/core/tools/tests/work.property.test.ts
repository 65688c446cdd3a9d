import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  createToolContract,
  type JsonObject,
  PROFILE_IDS,
  type ProfileId,
  ToolArgsError,
} from '../src/index.ts'
import { compileLinear } from '../src/validate/pattern/linear-regexp.ts'
import { callWork, expectLinearWork, tally } from './work.ts'

/**
 * The work-counting fuzz harness: hostile schemas × hostile arguments × every profile, each at sizes n, 2n and 4n.
 * Work is counted (root-contract check nodes, projection nodes, value nodes, declared-schema nodes, validator calls,
 * `$ref` evaluations, regex input reads), never timed, and must grow linearly: at most 2.5× per doubling. What is not
 * counted: ajv's own work inside one compiled function (its keywords other than `$ref`), and ajv's compile.
 */
const TOOL = { tool: 'hostile', source: 'fast-check' }

/** Each level an `anyOf` of two `$ref`s to the next: ajv (and every unmemoized walk) does 2^n work on it. */
function refChain(n: number): JsonObject {
  const $defs: JsonObject = {}
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? `#/$defs/L${i + 1}` : '#/$defs/leaf'
    $defs[`L${i}`] = { anyOf: [{ $ref: next }, { $ref: next }] }
  }
  $defs.leaf = { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }
  return { type: 'object', properties: { a: { $ref: '#/$defs/L0' } }, $defs }
}

function wideUnion(n: number): JsonObject {
  const branches = Array.from({ length: n }, (_, i) => ({
    type: 'object',
    properties: { [`k${i}`]: { type: 'array', items: { type: 'number' } } },
    required: [`k${i}`],
  }))
  return { type: 'object', properties: { a: { anyOf: branches } } }
}

function deepNesting(n: number): JsonObject {
  let node: JsonObject = { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }
  for (let i = 0; i < n; i++) node = { type: 'object', properties: { next: node, note: { type: 'string' } } }
  return { type: 'object', properties: { a: node } }
}

function hugeEnum(n: number): JsonObject {
  return { type: 'object', properties: { a: { enum: Array.from({ length: n }, (_, i) => `v${i}`) } } }
}

function longStrings(_n: number): JsonObject {
  return {
    type: 'object',
    properties: { a: { type: 'object', properties: { text: { type: 'string', maxLength: 1_000_000 } } } },
  }
}

/** A string beside a tuple, which strict routes take as JSON text: parsed text is checked against the tuple. */
function textUnion(_n: number): JsonObject {
  const lists = { type: 'array', items: { type: 'integer' } }
  return {
    type: 'object',
    properties: {
      a: {
        anyOf: [{ type: 'string' }, { type: 'array', items: [{ type: 'integer' }], additionalItems: lists }],
      },
    },
  }
}

function redos(_n: number): JsonObject {
  return { type: 'object', properties: { a: { type: 'string', pattern: '^(a|a)*$' } } }
}

/** A valid value of the family's `a` slot, sized n where the family has a size for values. */
const VALID: Record<string, (n: number) => unknown> = {
  refChain: () => ({ x: 'y' }),
  wideUnion: (n) => ({ [`k${n - 1}`]: [1, 2, 3] }),
  deepNesting: (n) => {
    let value: unknown = { x: 'y' }
    for (let i = 0; i < n; i++) value = { next: value, note: 'n' }
    return value
  },
  hugeEnum: (n) => `v${n - 1}`,
  redos: (n) => 'a'.repeat(n),
  textUnion: (n) => JSON.stringify([0, ...Array.from({ length: n }, (_, i) => [i, i])]),
  longStrings: (n) => ({ text: `${'{"x":'.repeat(n)}${'y'.repeat(100 * n)}` }),
}

const FAMILIES: Record<string, { schema: (n: number) => JsonObject; base: number }> = {
  // Past ~13 levels the projection's node budget is reached; from there work must stop growing with the unfolding.
  refChain: { schema: refChain, base: 16 },
  wideUnion: { schema: wideUnion, base: 40 },
  deepNesting: { schema: deepNesting, base: 40 },
  hugeEnum: { schema: hugeEnum, base: 200 },
  redos: { schema: redos, base: 200 },
  textUnion: { schema: textUnion, base: 200 },
  longStrings: { schema: longStrings, base: 200 },
}

type ArgumentKind = 'valid' | 'wrong-typed' | 'stringified' | 'invalid-leaf'

function argumentsOf(family: string, kind: ArgumentKind, n: number): unknown {
  const valid = VALID[family]!(n)
  switch (kind) {
    case 'valid':
      return { a: valid }
    case 'wrong-typed':
      return { a: 5 }
    case 'stringified':
      return { a: typeof valid === 'string' ? valid : JSON.stringify(valid) }
    case 'invalid-leaf':
      return {
        a: typeof valid === 'string' ? `${valid}!` : JSON.parse(JSON.stringify(valid).replace('"y"', '7')),
      }
  }
}

function familyWork(family: string, kind: ArgumentKind, profile: ProfileId, n: number): number {
  return callWork(FAMILIES[family]!.schema(n), argumentsOf(family, kind, n), profile)
}

describe('work grows linearly on hostile schemas and arguments, for every profile', () => {
  it('projection + normalize + parse, sizes n, 2n, 4n', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FAMILIES)),
        fc.constantFrom<ArgumentKind>('valid', 'wrong-typed', 'stringified', 'invalid-leaf'),
        fc.constantFrom(...PROFILE_IDS),
        fc.integer({ min: 0, max: 8 }),
        (family, kind, profile, extra) => {
          const n = FAMILIES[family]!.base + extra
          expectLinearWork(
            `${family}/${kind}/${profile}`,
            (size) => familyWork(family, kind, profile, size),
            n,
          )
        },
      ),
      { numRuns: 40 },
    )
  })

  it('the depth-18 anyOf-of-refs chain: a wrong-typed argument costs a few dozen $ref evaluations, not 2^18', () => {
    const meter = tally()
    const contract = createToolContract(refChain(18), TOOL, { meter })
    expect(() => contract.parseArguments({ a: 5 }, 'deepseek')).toThrow(ToolArgsError)
    expect(meter.of('ref-evaluation')).toBeLessThan(4 * 19)
    meter.reset()
    contract.projection('codex')
    contract.projection('openai-strict')
    expect(meter.of('projection-helper')).toBeLessThan(2 * 4 * 19)
  })
})

describe('patterns run on a linear-time engine', () => {
  /** UTF-8 bytes of `text` behind a Proxy that counts every read the engine makes of the input. */
  function countedInput(text: string): { input: number[]; reads: () => number } {
    let reads = 0
    const input = new Proxy([...Buffer.from(text)], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++
        return Reflect.get(target, key, receiver)
      },
    })
    return { input, reads: () => reads }
  }

  it('^(a|a)*$ against "a"×N + "!" reads the input a bounded number of times per character', () => {
    const engine = compileLinear('^(a|a)*$')
    if (!('test' in engine)) throw engine
    const reads = (n: number): number => {
      const counted = countedInput(`${'a'.repeat(n)}!`)
      expect(engine.test(counted.input as unknown as string)).toBe(false)
      return counted.reads()
    }
    expectLinearWork('redos', reads, 1_000, 2.1)
    // A backtracking engine reads 2^N times; this one reads each byte a constant number of times.
    expect(reads(4_000)).toBeLessThan(4 * 4_001)
  })

  it('the validator evaluates `pattern` and `patternProperties` with it (RE2 syntax, ECMA semantics)', () => {
    const contract = createToolContract(
      {
        type: 'object',
        properties: { a: { type: 'string', pattern: '^(a|a)*$' } },
        patternProperties: { '^x-\\d+$': { type: 'number' } },
      },
      TOOL,
    )
    expect(contract.validate({ a: `${'a'.repeat(50_000)}!` }).map((v) => v.keyword)).toEqual(['pattern'])
    expect(contract.validate({ a: 'aaaa', 'x-1': 1 })).toEqual([])
    expect(contract.validate({ 'x-1': 'one' }).map((v) => v.pointer)).toEqual(['/x-1'])
  })

  it('a pattern RE2 cannot run is reported when the validator compiles, and a call reaching it is refused', () => {
    const problems: unknown[] = []
    const contract = createToolContract(
      {
        type: 'object',
        properties: { a: { type: 'string', pattern: '^(?!admin).*$' }, b: { type: 'number' } },
      },
      TOOL,
      { onValidatorProblem: (p) => problems.push(p) },
    )
    expect(contract.compileValidator()).toMatchObject({
      identity: TOOL,
      pointer: '/properties/a/pattern',
      construct: expect.stringMatching(/lookaround/),
    })
    expect(problems).toHaveLength(1)
    // Never silently accepted, never run on a backtracking engine: the call that reaches it is refused.
    expect(() => contract.parseArguments({ a: 'user' }, 'deepseek')).toThrow(
      /rewrite the pattern without lookaround/,
    )
    expect(() => contract.parseArguments({ a: 'user' }, 'deepseek')).toThrow(ToolArgsError)
    // A call that never reaches the pattern is validated as usual.
    expect(contract.parseArguments({ b: 1 }, 'deepseek')).toEqual({ b: 1 })
  })
})

describe('refusals are worded within a budget', () => {
  it('lists at most 20 errors and says there were more', () => {
    const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, { type: 'number' }]))
    const contract = createToolContract({ type: 'object', properties }, TOOL)
    const args = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, 'x']))
    const violations = contract.validate(args)
    expect(violations).toHaveLength(21)
    expect(violations[20]!.message).toMatch(/and more/)
  })
})
