import { createToolContract, DEFAULT_LIMITS, JsonSchemaError } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { type ArgumentCase, arraySchema, DEEP_LEVELS, deepArgs, deepSchema } from '../src/argument-cases.ts'
import { exampleArguments } from '../src/example-args.ts'
import { createBareAjv, prepareCase } from '../src/validators.ts'

const identity = { tool: 'probe', source: undefined }

describe('exampleArguments', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 12 },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      mode: { type: 'string', enum: ['fast', 'safe'] },
      flag: { type: ['boolean', 'string'] },
      url: { type: 'string', format: 'uri' },
      edits: {
        type: 'array',
        items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] },
      },
      data: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['path'],
    additionalProperties: false,
  }

  it('fills every declared property with a value the schema accepts, deterministically', () => {
    const args = exampleArguments(schema)
    expect(args).toEqual(exampleArguments(schema))
    expect(Object.keys(args).sort()).toEqual(['count', 'data', 'edits', 'flag', 'mode', 'path', 'url'])
    expect(createBareAjv()(schema)(args)).toBe(true)
  })

  it('fills only the required properties when asked', () => {
    expect(Object.keys(exampleArguments(schema, { required: 'only' }))).toEqual(['path'])
  })
})

describe('synthetic cases', () => {
  it('builds depth-64 objects whose schema the root contract accepts, and a deeper one a tighter depth limit rejects', () => {
    expect(createToolContract(deepSchema(DEEP_LEVELS), identity).declared).toBeDefined()
    // Two JSON levels per object level (`properties`, then the property): 64 levels need more than 64.
    const tight = { limits: { ...DEFAULT_LIMITS, maxDepth: 2 * DEEP_LEVELS } }
    expect(() => createToolContract(deepSchema(4 * DEEP_LEVELS), identity, tight)).toThrow(JsonSchemaError)
    let depth = 0
    for (let node: unknown = deepArgs(DEEP_LEVELS); node !== undefined; depth++)
      node = (node as { child?: unknown }).child
    expect(depth).toBe(DEEP_LEVELS)
  })

  it('gives arguments every validator accepts unchanged (ours, bare ajv, DSH)', () => {
    const tasks = Array.from({ length: 3 }, (_, index) => ({ id: index, title: `t${index}`, done: false }))
    const argumentCase: ArgumentCase = {
      name: 'probe',
      tools: [
        { name: 'deep', source: undefined, parameters: deepSchema(8), args: deepArgs(8) },
        { name: 'tasks', source: undefined, parameters: arraySchema(), args: { tasks } },
      ],
      repetitions: 1,
      dshRepetitions: 1,
      notes: [],
    }
    // prepareCase throws when parseArguments changes the arguments or bare ajv rejects them.
    const prepared = prepareCase(argumentCase)
    expect(prepared.dshTools.map((tool) => tool.name)).toEqual(['deep', 'tasks'])
  })
})
