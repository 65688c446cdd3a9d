import { type JsonObject, PROFILE_IDS, profileForRoute } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { aiSdkGoogleJudge } from '../src/judges/ai-sdk-google.ts'
import { bedrockJudge } from '../src/judges/bedrock.ts'
import { JUDGES } from '../src/judges/index.ts'
import { mistralJudge } from '../src/judges/mistral.ts'
import { MAX_PROBES, nodeLlamaCppJudge } from '../src/judges/node-llama-cpp.ts'
import { profilesReached } from '../src/judges/reached.ts'

const pointers = (outcome: Awaited<ReturnType<typeof aiSdkGoogleJudge.judge>>) =>
  outcome.outcome === 'changed' ? outcome.differences.map((d) => `${d.pointer} ${d.kind}`) : []

// A search tool as zod-to-json-schema lists it: a pattern, a nullable type list, a closed object.
const SEARCH: JsonObject = {
  type: 'object',
  properties: {
    q: { type: 'string', pattern: '^[a-z]+$' },
    cursor: { type: ['string', 'null'] },
  },
  required: ['q'],
  additionalProperties: false,
}

describe('the judge list', () => {
  it('names every judge with package@version (an exact pin) and the function that does the work', () => {
    for (const judge of JUDGES)
      if (judge.id !== 'reported-errors')
        expect(judge.source).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+ \S/)
  })

  it('runs a provider judge on the columns DSH places its routes in, and on no column for a route placed nowhere', () => {
    const mistral = profileForRoute({ provider: 'mistral', model: 'mistral-large-latest' })
    expect(mistralJudge.profiles).toEqual(mistral === undefined ? [] : [mistral])
    expect(profilesReached([{ provider: 'no-such-provider-anywhere', model: 'no-such-model' }])).toEqual([])
    for (const profile of bedrockJudge.profiles) expect(PROFILE_IDS).toContain(profile)
    expect(bedrockJudge.profiles).toContain(
      profileForRoute({ provider: 'amazon-bedrock', model: 'anthropic.claude-sonnet-4-20250514-v1:0' }),
    )
  })
})

describe('@ai-sdk/google convertJSONSchemaToOpenAPISchema (through doGenerate, no network)', () => {
  it('drops pattern and additionalProperties and turns a nullable type list into nullable', async () => {
    const outcome = await aiSdkGoogleJudge.judge(SEARCH, 'search', 'gemini')
    expect(pointers(outcome)).toEqual(
      expect.arrayContaining([
        '/properties/q/pattern removed',
        '/additionalProperties removed',
        '/properties/cursor/type changed',
        '/properties/cursor/nullable added',
      ]),
    )
  })

  it('sends a recursive $ref as parametersJsonSchema, unchanged', async () => {
    const tree: JsonObject = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
    }
    expect(await aiSdkGoogleJudge.judge(tree, 'walk', 'gemini')).toEqual({ outcome: 'unchanged' })
  })

  it('sends a $schema-only root with nothing in it: the model learns no argument', async () => {
    const outcome = await aiSdkGoogleJudge.judge(
      { $schema: 'http://json-schema.org/draft-07/schema#' },
      'noop',
      'gemini',
    )
    expect(pointers(outcome)).toEqual(['/$schema removed'])
  })
})

describe('@mistralai/mistralai request validation (HTTPClient fetcher, no network)', () => {
  it('sends parameters as given: its request model takes any record of JSON', async () => {
    expect(await mistralJudge.judge(SEARCH, 'search', 'openai')).toEqual({ outcome: 'unchanged' })
  })
})

describe('@aws-sdk/client-bedrock-runtime ConverseCommand (request handler captures the body)', () => {
  it('serializes the schema as a document, unchanged', async () => {
    expect(await bedrockJudge.judge(SEARCH, 'search', 'anthropic')).toEqual({ outcome: 'unchanged' })
  })

  it('checks no tool name client-side: a dotted name the service refuses goes out all the same', async () => {
    expect(await bedrockJudge.judge(SEARCH, 'service.doSomething', 'anthropic')).toEqual({
      outcome: 'unchanged',
    })
  })
})

describe('node-llama-cpp 3.21.1 createGrammarForJsonSchema (prebuilt CPU addon, no model)', () => {
  it('finds the keywords its grammar does not hold: pattern, required (it requires every property), anyOf', async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        q: { type: 'string', pattern: '^[a-z]+$' },
        limit: { type: 'integer' },
        mode: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['q'],
    }
    expect(pointers(await nodeLlamaCppJudge.judge(schema, 'search', 'deepseek'))).toEqual(
      expect.arrayContaining([
        '/properties/q/pattern removed',
        '/required removed',
        '/properties/mode/anyOf removed',
      ]),
    )
  })

  it('leaves a schema it holds whole unchanged', async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { path: { type: 'string' }, all: { type: 'boolean' } },
    }
    expect(await nodeLlamaCppJudge.judge(schema, 'read', 'deepseek')).toEqual({ outcome: 'unchanged' })
  })

  it('refuses a schema nested past its 512 scopes, with its own message', async () => {
    let deep: JsonObject = { type: 'string' }
    for (let level = 0; level < 600; level++) deep = { type: 'object', properties: { next: deep } }
    const outcome = await nodeLlamaCppJudge.judge(deep, 'deep', 'deepseek')
    expect(outcome).toEqual({
      outcome: 'refused',
      message: expect.stringContaining('Maximum nesting scope exceeded'),
    })
  })

  it('stops after a bounded number of keyword probes on a huge schema', async () => {
    const properties: Record<string, JsonObject> = {}
    for (let index = 0; index < MAX_PROBES; index++)
      properties[`p${index}`] = { type: 'string', minLength: 1 }
    const outcome = await nodeLlamaCppJudge.judge({ type: 'object', properties }, 'wide', 'deepseek')
    expect(outcome.outcome === 'changed' && outcome.differences.at(-1)?.value).toBe(
      `(stopped after ${MAX_PROBES} keyword probes)`,
    )
  })
})
