import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject, ToolArgsError } from '../src/index.ts'

/**
 * What a user reads when a call is refused or a validator cannot be built (the mutation run's survivors in
 * `read/tool-args-error.ts` and `validate/validator-problem.ts`): DSH's error shape, the root of the arguments
 * named in words, and each ajv compile failure named by the construct that causes it.
 */
const TOOL = { tool: 'search', source: 'plugin-under-test' }

function refusal(schema: JsonObject, args: unknown): ToolArgsError {
  try {
    createToolContract(schema, TOOL).parseArguments(args, 'deepseek')
  } catch (error) {
    if (error instanceof ToolArgsError) return error
    throw error
  }
  throw new Error('the call was accepted')
}

describe('a refused call reads like DSH’s ToolArgsError and names the tool, its source and each place', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: { count: { type: 'integer' } },
    required: ['count'],
  }

  it('has DSH’s name, code and message opening, then the tool and its source', () => {
    const error = refusal(schema, { count: 'three' })
    expect(error.name).toBe('ToolArgsError')
    expect(error.code).toBe('INVALID_ARGS')
    expect(error.message).toMatch(/^invalid arguments for tool "search" from "plugin-under-test": \/count /)
  })

  it('a violation of the whole arguments object is placed at "(arguments)", one inside it at its pointer', () => {
    expect(refusal(schema, ['three']).violations).toEqual([
      expect.stringMatching(/^\(arguments\) must be object/),
    ])
    expect(refusal(schema, { count: 1.5 }).violations).toEqual([expect.stringMatching(/^\/count must be/)])
  })

  it('several violations are listed in the message one after another, separated by "; "', () => {
    const two: JsonObject = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } }
    const error = refusal(two, { a: 'x', b: 'y' })
    expect(error.violations).toHaveLength(2)
    expect(error.message).toBe(
      `invalid arguments for tool "search" from "plugin-under-test": ${error.violations.join('; ')}`,
    )
    expect(error.message).toContain('; /b ')
  })
})

/** The problem a contract reports for a schema ajv cannot compile, and what a call then gets. */
function uncompilable(schema: JsonObject) {
  const contract = createToolContract(schema, TOOL)
  return { problem: contract.compileValidator(), violations: contract.validate({}) }
}

describe('each schema ajv cannot compile is reported by its own construct, and every call is refused', () => {
  it('a `$ref` resolved against a nested `$id` where the target is not', () => {
    const { problem, violations } = uncompilable({
      type: 'object',
      properties: { a: { $id: 'https://example.test/sub/', properties: { b: { $ref: '#/$defs/text' } } } },
      $defs: { text: { type: 'string' } },
    })
    expect(problem?.construct).toMatch(/`\$ref` ajv resolves against a nested `\$id` base URI/)
    expect(problem?.detail).toMatch(/can't resolve reference/)
    expect(violations).toEqual([
      {
        pointer: '',
        keyword: 'schema',
        message: expect.stringMatching(
          /^cannot be checked: .*nested `\$id`.* no fallback validator was given$/,
        ),
      },
    ])
  })

  it('a construct with no more specific name (draft-04 `id`) is still named as what ajv does not compile', () => {
    const { problem, violations } = uncompilable({
      type: 'object',
      properties: { a: { id: 'legacy', type: 'string' } },
    })
    expect(problem?.construct).toBe('a construct ajv does not compile')
    expect(problem?.detail).toMatch(/keyword "id"/)
    expect(violations[0]?.pointer).toBe('')
    expect(violations[0]?.message).toMatch(/\(a construct ajv does not compile\)/)
  })
})

describe('a pattern the linear engine refuses: the problem says what still checks the other keywords', () => {
  it('ajv keeps checking everything else, and a call reaching the pattern is refused', () => {
    const contract = createToolContract(
      { type: 'object', properties: { q: { type: 'string', pattern: '(?=a)' }, n: { type: 'integer' } } },
      TOOL,
    )
    expect(contract.compileValidator()?.fallback).toMatch(
      /^ajv for every other keyword; a call whose value reaches this pattern is refused/,
    )
    expect(contract.validate({ n: 'x' }).map((violation) => violation.pointer)).toEqual(['/n'])
  })
})
