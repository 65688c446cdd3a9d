import { describe, expect, it } from 'vitest'
import {
  type ArgumentViolation,
  createToolContract,
  type FallbackValidator,
  type JsonObject,
  ToolArgsError,
  type ValidatorProblem,
} from '../src/index.ts'

/**
 * Schemas the root contract accepts but ajv 8.17 cannot compile: each is reported at register, naming the tool and
 * the construct, and arguments are then checked by the fallback validator — or refused — never accepted unchecked.
 * Every cause below was found by trying it against ajv, not injected.
 */
const TOOL = { tool: 'uncompilable', source: 'plugin-under-test' }

function nestedObjects(depth: number): JsonObject {
  let node: JsonObject = { type: 'string' }
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { a: node } }
  return { type: 'object', properties: { root: node } }
}

const CAUSES: readonly { name: string; schema: JsonObject; construct: RegExp; valid: unknown }[] = [
  {
    // ajv's compiler recurses per level; DSH's own suite registers 5,000 nested oneOf levels.
    name: 'more nodes than the compile budget (DSH 5,000-level oneOf chain)',
    schema: (() => {
      let node: JsonObject = { type: 'string' }
      for (let i = 0; i < 5_000; i++) node = { oneOf: [node, { type: 'null' }] }
      return { type: 'object', properties: { nested: node } }
    })(),
    construct: /more schema nodes than the validator compiles/,
    valid: { nested: null },
  },
  {
    name: 'more nodes than the compile budget (1,000 nested objects)',
    schema: nestedObjects(1_000),
    construct: /more schema nodes than the validator compiles/,
    valid: {},
  },
  {
    // Within the compile budget (602 nodes) and still too deep for ajv's recursive compiler.
    name: 'nesting deeper than ajv compiles (600 nested objects)',
    schema: nestedObjects(600),
    construct: /nesting deeper than it compiles/,
    valid: {},
  },
  {
    name: 'a `$id` used twice',
    schema: {
      type: 'object',
      properties: {
        a: { $id: 'http://example.com/shared', type: 'string' },
        b: { $id: 'http://example.com/shared', type: 'number' },
      },
    },
    construct: /`\$id` or `\$anchor` used twice/,
    valid: { a: 'x' },
  },
  {
    name: 'an `$anchor` used twice (2020-12)',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { $anchor: 'item', type: 'string' }, b: { $anchor: 'item', type: 'number' } },
    },
    construct: /`\$id` or `\$anchor` used twice/,
    valid: { a: 'x' },
  },
  {
    name: 'a `$ref` beside a nested `$id` (ajv resolves it in a loop)',
    schema: {
      type: 'object',
      definitions: { text: { type: 'string' } },
      properties: { a: { $id: 'http://example.com/a', $ref: '#/definitions/text' } },
    },
    construct: /resolves in a loop/,
    valid: { a: 'x' },
  },
]

/** A stand-in for the overlay's fallback (DSH's validateJsonSchemaValue): counts calls and answers as told. */
function fallback(answer: readonly ArgumentViolation[]): FallbackValidator & { calls: unknown[] } {
  const calls: unknown[] = []
  return {
    label: 'test fallback',
    calls,
    validate(schema, args) {
      calls.push({ schema, args })
      return answer
    },
  }
}

describe('a validator ajv cannot compile is reported and never accepts everything', () => {
  for (const cause of CAUSES) {
    describe(cause.name, () => {
      it('is reported once, when the validator is compiled (not at register), naming the tool and the construct', () => {
        const problems: ValidatorProblem[] = []
        const contract = createToolContract(cause.schema, TOOL, {
          onValidatorProblem: (p) => problems.push(p),
        })
        // Register compiles nothing: the cost of a tool that is never called is the root-contract check alone.
        expect(problems).toEqual([])
        expect(contract.compileValidator()).toBe(problems[0])
        contract.validate(cause.valid)
        expect(problems).toHaveLength(1)
        expect(problems[0]!.identity).toEqual(TOOL)
        expect(problems[0]!.construct).toMatch(cause.construct)
        expect(problems[0]!.detail).not.toBe('')
        expect(contract.validatorProblem).toBe(problems[0])
      })

      it('without a fallback, refuses every call with a ToolArgsError that says why', () => {
        const contract = createToolContract(cause.schema, TOOL)
        expect(contract.validatorProblem?.fallback).toMatch(/every call is refused/)
        expect(contract.validate(cause.valid)).toEqual([
          expect.objectContaining({ keyword: 'schema', message: expect.stringMatching(/cannot be checked/) }),
        ])
        expect(() => contract.parseArguments(cause.valid, 'deepseek')).toThrow(ToolArgsError)
        expect(() => contract.parseArguments(cause.valid, 'deepseek')).toThrow(/uncompilable/)
      })

      it('with a fallback, uses its verdict on the detached declared schema', () => {
        const accepting = fallback([])
        const contract = createToolContract(cause.schema, TOOL, { fallbackValidator: accepting })
        expect(contract.validatorProblem?.fallback).toBe('test fallback')
        expect(contract.parseArguments(cause.valid, 'deepseek')).toEqual(cause.valid)
        expect(accepting.calls.length).toBeGreaterThan(0)
        expect((accepting.calls[0] as { schema: unknown }).schema).toBe(contract.declared)

        const rejecting = fallback([{ pointer: '/a', keyword: 'type', message: 'must be string' }])
        const strict = createToolContract(cause.schema, TOOL, { fallbackValidator: rejecting })
        expect(() => strict.parseArguments(cause.valid, 'deepseek')).toThrow(/\/a must be string/)
      })
    })
  }

  it('a fallback that throws refuses the call with its reason instead of throwing at the caller', () => {
    const contract = createToolContract(CAUSES[0]!.schema, TOOL, {
      fallbackValidator: {
        label: 'a subset validator',
        validate: () => {
          throw new TypeError('unsupported keyword oneOf')
        },
      },
    })
    expect(() => contract.parseArguments(CAUSES[0]!.valid, 'deepseek')).toThrow(
      /cannot be checked: a subset validator failed: unsupported keyword oneOf/,
    )
    expect(() => contract.parseArguments(CAUSES[0]!.valid, 'deepseek')).toThrow(ToolArgsError)
  })

  it('a schema ajv compiles reports nothing and ignores the fallback', () => {
    const unused = fallback([{ pointer: '', keyword: 'x', message: 'never' }])
    const problems: ValidatorProblem[] = []
    const contract = createToolContract(nestedObjects(50), TOOL, {
      fallbackValidator: unused,
      onValidatorProblem: (p) => problems.push(p),
    })
    expect(contract.validatorProblem).toBeUndefined()
    expect(problems).toEqual([])
    expect(contract.validate({ root: {} })).toEqual([])
    expect(contract.validate({ root: 1 }).map((v) => v.pointer)).toEqual(['/root'])
    expect(unused.calls).toEqual([])
  })
})

describe('validators compile lazily, once', () => {
  it('the first validation compiles and reports; later ones and compileValidator() do not report again', () => {
    const problems: ValidatorProblem[] = []
    const contract = createToolContract(CAUSES[2]!.schema, TOOL, {
      onValidatorProblem: (p) => problems.push(p),
    })
    expect(problems).toEqual([])
    contract.validate(CAUSES[2]!.valid)
    expect(problems).toHaveLength(1)
    contract.validate(CAUSES[2]!.valid)
    expect(contract.compileValidator()).toBe(problems[0])
    expect(problems).toHaveLength(1)
  })
})
