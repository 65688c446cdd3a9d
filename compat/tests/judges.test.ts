import { type JsonObject, projectParameters } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { anthropicStrictJudge } from '../src/judges/anthropic-strict.ts'
import { geminiSdkJudge } from '../src/judges/gemini-sdk.ts'
import { openAiStrictJudge } from '../src/judges/openai-strict.ts'
import { piAiJudge } from '../src/judges/pi-ai.ts'
import { reportedErrorsJudge } from '../src/judges/reported-errors.ts'

// `filesystem_read_multiple_files` as sigoden/aichat#1049 reports it: "In context=('properties', 'paths'), array schema
// missing items."
const ARRAY_WITHOUT_ITEMS: JsonObject = {
  type: 'object',
  properties: { paths: { type: 'array' } },
  required: ['paths'],
  additionalProperties: false,
}

describe('openai-node toStrictJsonSchema as a judge', () => {
  it('refuses the reported array without items, naming the path', async () => {
    const outcome = await openAiStrictJudge.judge(ARRAY_WITHOUT_ITEMS, 'read_multiple_files', 'openai-strict')
    expect(outcome).toEqual({
      outcome: 'refused',
      message: expect.stringContaining('`properties/paths` declares an array without `items`'),
    })
  })

  it('refuses an optional field that does not admit null (its `.optional()` without `.nullable()` rule)', async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { q: { type: 'string' } },
      additionalProperties: false,
    }
    const outcome = await openAiStrictJudge.judge(schema, 'search', 'openai-strict')
    expect(outcome.outcome).toBe('refused')
  })

  it('has nothing left to change or refuse on our openai-strict wire for the same tool', async () => {
    const { wire } = projectParameters(ARRAY_WITHOUT_ITEMS, 'openai-strict')
    expect(await openAiStrictJudge.judge(wire, 'read_multiple_files', 'openai-strict')).toEqual({
      outcome: 'unchanged',
    })
  })
})

describe('@google/genai processJsonSchema as a judge (through generateContent, no network)', () => {
  it('refuses `type` beside `anyOf` with the SDK message gemini-cli#4121 quotes', async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { mode: { type: 'string', anyOf: [{ enum: ['a'] }, { enum: ['b'] }] } },
    }
    expect(await geminiSdkJudge.judge(schema, 'pick', 'gemini')).toEqual({
      outcome: 'refused',
      message: 'type and anyOf cannot be both populated.',
    })
  })

  it('reports the additionalProperties it drops, and does not count upper-cased type names', async () => {
    const outcome = await geminiSdkJudge.judge(ARRAY_WITHOUT_ITEMS, 'read_multiple_files', 'gemini')
    expect(outcome).toEqual({
      outcome: 'changed',
      differences: [{ pointer: '/additionalProperties', kind: 'removed', value: 'false' }],
    })
    const clean: JsonObject = { type: 'object', properties: { q: { type: 'string' } } }
    expect(await geminiSdkJudge.judge(clean, 'search', 'gemini')).toEqual({ outcome: 'unchanged' })
  })

  it('leaves a schema with `$schema` alone: the SDK sends it as parametersJsonSchema', async () => {
    const schema: JsonObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
    }
    expect(await geminiSdkJudge.judge(schema, 'noop', 'gemini')).toEqual({ outcome: 'unchanged' })
  })

  it('has nothing left to change or refuse on our gemini wire for the reported tool', async () => {
    const { wire } = projectParameters(ARRAY_WITHOUT_ITEMS, 'gemini')
    expect(await geminiSdkJudge.judge(wire, 'read_multiple_files', 'gemini')).toEqual({
      outcome: 'unchanged',
    })
  })
})

describe('@anthropic-ai/sdk transformJSONSchema as a judge', () => {
  it('refuses a node without a type (its strict helper cannot take one)', async () => {
    const schema: JsonObject = { type: 'object', properties: { value: { description: 'any JSON' } } }
    expect(await anthropicStrictJudge.judge(schema, 'write', 'anthropic')).toEqual({
      outcome: 'refused',
      message: 'JSON schema must have a type defined if anyOf/oneOf/allOf/enum/const are not used',
    })
  })

  it('moves a pattern into the description and closes the object', async () => {
    const schema: JsonObject = { type: 'object', properties: { id: { type: 'string', pattern: '^a+$' } } }
    const outcome = await anthropicStrictJudge.judge(schema, 'get', 'anthropic')
    expect(outcome.outcome).toBe('changed')
    const pointers = outcome.outcome === 'changed' ? outcome.differences.map((d) => d.pointer) : []
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/additionalProperties',
        '/properties/id/pattern',
        '/properties/id/description',
      ]),
    )
  })
})

describe('the reported-errors probes', () => {
  const refusedOn = async (schema: JsonObject, profile: Parameters<typeof reportedErrorsJudge.judge>[2]) => {
    const outcome = await reportedErrorsJudge.judge(schema, 'tool', profile)
    return outcome.outcome === 'refused' ? outcome.message : undefined
  }

  it('find the array without items OpenAI refuses, and only on OpenAI routes', async () => {
    expect(await refusedOn(ARRAY_WITHOUT_ITEMS, 'openai')).toContain(
      '/properties/paths: an array without items',
    )
    expect(await refusedOn(ARRAY_WITHOUT_ITEMS, 'anthropic')).toBeUndefined()
  })

  it("find the lookaround of zod 4's email pattern (Dokploy/mcp#45) on the Codex route", async () => {
    const email =
      "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$"
    const schema: JsonObject = { type: 'object', properties: { email: { type: 'string', pattern: email } } }
    expect(await refusedOn(schema, 'codex')).toContain('/properties/email/pattern: lookaround')
    const named: JsonObject = {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^(?<id>[a-z]+)\\(?=$' } },
    }
    expect(await refusedOn(named, 'codex')).toBeUndefined()
  })

  it("find a key outside Anthropic's property-key pattern (erikmaday/unusual-whales-mcp#57: `rule_name[]`)", async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { 'rule_name[]': { type: 'array', items: { type: 'string' } } },
    }
    expect(await refusedOn(schema, 'anthropic')).toContain('key "rule_name[]"')
  })

  it("find Gemini's undeclared required key (browser_click in iBUHub/AIStudioToAPI#154) and integer enum", async () => {
    expect(await refusedOn({ type: 'object', properties: {}, required: ['ref'] }, 'gemini')).toContain(
      '/required: "ref" is not declared',
    )
    const level: JsonObject = { type: 'object', properties: { level: { type: 'integer', enum: [1, 2, 3] } } }
    expect(await refusedOn(level, 'gemini')).toContain('/properties/level/enum')
  })
})

describe('pi-ai (the request dsh-llm-pi-ai sends) as a judge', () => {
  // A zod-style schema with a shared definition, as servers built with `reused: 'ref'` list it.
  const WITH_REF: JsonObject = {
    type: 'object',
    $defs: { mode: { type: 'string', enum: ['fast', 'full'] } },
    properties: { mode: { $ref: '#/$defs/mode' } },
    required: ['mode'],
    additionalProperties: false,
  }

  it("shows pi-ai's Anthropic route dropping root $defs, which leaves a stock $ref dangling", async () => {
    const outcome = await piAiJudge.judge(WITH_REF, 'scan', 'anthropic')
    expect(outcome.outcome).toBe('changed')
    const removed = outcome.outcome === 'changed' ? outcome.differences.map((d) => d.pointer) : []
    expect(removed).toEqual(expect.arrayContaining(['/$defs', '/additionalProperties']))
  })

  it('leaves our anthropic wire with every reference resolvable where it arrives (only the root additionalProperties goes)', async () => {
    const { wire } = projectParameters(WITH_REF, 'anthropic')
    const outcome = await piAiJudge.judge(wire, 'scan', 'anthropic')
    const pointers = outcome.outcome === 'changed' ? outcome.differences.map((d) => d.pointer) : []
    expect(pointers.filter((pointer) => pointer !== '/additionalProperties')).toEqual([])
    // The definition travels inside the root property pi-ai sends, so the reference resolves where it arrives.
    expect(JSON.stringify(wire)).toContain('#/properties/mode/$defs/mode')
  })

  it('sends the schema unchanged on the DeepSeek, OpenAI, Codex and Gemini routes', async () => {
    for (const profile of ['deepseek', 'openai', 'codex', 'gemini'] as const)
      expect(await piAiJudge.judge(WITH_REF, 'scan', profile)).toEqual({ outcome: 'unchanged' })
  })
})
