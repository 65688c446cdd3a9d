import { describe, expect, it } from 'vitest'
import {
  decoderNote,
  judgeMcpOutputSchema,
  judgeMcpSchema,
  judgeMcpToolList,
  judgeRoute,
  projectParameters,
} from '../src/index.ts'

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const OBJECT = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }

describe('MCP boundary repairs: one meaning only', () => {
  it('a root of only $schema (zod 4 through zod-to-json-schema, server-filesystem 2025.8.21) is an empty object', () => {
    const verdict = judgeMcpSchema({ $schema: DRAFT_07 }, 'inputSchema', { policy: 'contract' })
    expect(verdict).toMatchObject({
      kind: 'repaired',
      schema: { $schema: DRAFT_07, type: 'object', properties: {} },
      repaired: [{ pointer: '', rule: 'root-empty' }],
    })
  })

  it('`required: null`, boolean property schemas and a missing inputSchema are repaired, each named', () => {
    const verdict = judgeMcpSchema(
      { type: 'object', properties: { 'a/b': true, off: false }, required: null },
      'inputSchema',
      { policy: 'contract' },
    )
    expect(verdict).toMatchObject({
      kind: 'repaired',
      schema: { type: 'object', properties: { 'a/b': {}, off: { not: {} } } },
    })
    if (verdict.kind !== 'repaired') throw new Error('repaired expected')
    expect(verdict.schema).not.toHaveProperty('required')
    expect(verdict.repaired.map((v) => [v.pointer, v.rule])).toEqual([
      ['/required', 'required-not-array'],
      ['/properties/a~1b', 'property-not-schema'],
      ['/properties/off', 'property-not-schema'],
    ])
    expect(judgeMcpSchema(undefined, 'inputSchema', { policy: 'contract' })).toMatchObject({
      kind: 'repaired',
      schema: { type: 'object', properties: {} },
      repaired: [{ rule: 'parameters-missing' }],
    })
  })

  it('a compliant schema is the very same object; a root union keeps its exact meaning as if/else', () => {
    expect(judgeMcpSchema(OBJECT, 'inputSchema', { policy: 'contract' })).toEqual({
      kind: 'ok',
      schema: OBJECT,
    })
    const union = { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] }
    // "a or b is present", exactly: if the first alternative holds the call is valid, else the second must.
    expect(judgeMcpSchema(union, 'inputSchema', { policy: 'contract' })).toMatchObject({
      kind: 'repaired',
      schema: { type: 'object', properties: {}, if: { required: ['a'] }, else: { required: ['b'] } },
      repaired: [{ pointer: '/anyOf', rule: 'root-union' }],
    })
    // The proxy's `spec` policy serves strict MCP clients, which take a root union; only the MCP shape decides.
    expect(judgeMcpSchema(union, 'inputSchema', { policy: 'spec' })).toEqual({ kind: 'ok', schema: union })
  })
})

describe('output-schema policy: a bad output schema costs the tool its output check, never the tool', () => {
  it('drops an output schema that is not object-rooted, or that ajv cannot compile', () => {
    expect(judgeMcpOutputSchema({ type: 'array' }, { policy: 'contract' })).toMatchObject({ kind: 'dropped' })
    const uncompilable = { type: 'object', properties: { p: { type: 'string', pattern: '(' } } }
    expect(judgeMcpOutputSchema(uncompilable, { policy: 'contract' })).toMatchObject({ kind: 'dropped' })
    const [verdict] = judgeMcpToolList([{ name: 't', inputSchema: OBJECT, outputSchema: { type: 'array' } }])
    expect(verdict).toMatchObject({
      status: 'repaired',
      problems: [{ schema: 'outputSchema', effect: 'output-unchecked' }],
    })
    expect(verdict?.tool).not.toHaveProperty('outputSchema')
    expect(verdict?.tool?.inputSchema).toBe(OBJECT)
  })
})

describe('entries: what is not a usable tool is isolated with a pointer into the entry', () => {
  it('no object, no string name, a name listed twice (contract only)', () => {
    const listed = [
      null,
      { inputSchema: OBJECT },
      { name: 'd', inputSchema: OBJECT },
      { name: 'd', inputSchema: OBJECT },
    ]
    expect(
      judgeMcpToolList(listed).map((v) => [
        v.name,
        v.status,
        v.problems[0]?.schema,
        v.problems[0]?.violations[0]?.pointer,
      ]),
    ).toEqual([
      ['#0', 'isolated', 'tool', ''],
      ['#1', 'isolated', 'tool', '/name'],
      ['d', 'isolated', 'tool', '/name'],
      ['d', 'isolated', 'tool', '/name'],
    ])
    expect(judgeMcpToolList(listed, { policy: 'spec' }).map((v) => v.status)).toEqual([
      'isolated',
      'isolated',
      'accepted',
      'accepted',
    ])
  })
})

describe('routes: a refusal, a misread and a wire change are three things', () => {
  const memoryLike = {
    $schema: DRAFT_07,
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'number' } },
    required: ['query'],
  }

  it('$schema: taken by deepseek, openai and codex (a wire change); refused by gemini, anthropic and dsh-subset', () => {
    for (const profile of ['deepseek', 'openai'] as const) {
      const route = judgeRoute(memoryLike, profile)
      expect(route.refusals, profile).toEqual([])
      expect(
        route.wireChanges.map((v) => v.pointer),
        profile,
      ).toEqual(['/$schema'])
    }
    for (const profile of ['gemini', 'anthropic', 'dsh-subset'] as const)
      expect(
        judgeRoute(memoryLike, profile).refusals.map((v) => v.pointer),
        profile,
      ).toContain('/$schema')
  })

  it('codex takes an optional field but fills it (#1149): a misread, not a refusal', () => {
    const route = judgeRoute(memoryLike, 'codex')
    expect(route.refusals).toEqual([])
    expect(route.misreads.map((v) => v.pointer)).toEqual(['/properties/limit'])
  })

  it('openai-strict: an open object is a refusal, listed before the metadata', () => {
    const refusals = judgeRoute(memoryLike, 'openai-strict').refusals
    expect(refusals.length).toBeGreaterThan(1)
    expect(refusals[0]?.pointer).not.toBe('/$schema')
    expect(refusals.at(-1)?.pointer).toBe('/$schema')
  })
})

describe('decoderNote: which projection changes need a decoder on the way back', () => {
  it('encoded JSON text and a widened optional do; dropping metadata or spilling a constraint does not', () => {
    const schema = {
      $schema: DRAFT_07,
      type: 'object',
      properties: { any: {}, n: { type: 'number', exclusiveMinimum: 0 } },
    }
    const changes = projectParameters(schema, 'openai-strict').changes
    const decoded = changes.filter((change) => decoderNote(change) !== undefined)
    expect(new Set(decoded.map((change) => change.action))).toEqual(
      new Set(['encoded-json', 'widened-nullable']),
    )
    for (const change of changes.filter((c) => c.action === 'dropped' || c.action === 'spilled'))
      expect(decoderNote(change)).toBeUndefined()
  })
})
