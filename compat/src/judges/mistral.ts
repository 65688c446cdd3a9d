import type { JsonObject } from '@dsh-harden/tools'
import { Mistral } from '@mistralai/mistralai'
import { HTTPClient } from '@mistralai/mistralai/lib/http.js'
import { jsonDifferences } from '../diff.ts'
import { DUMMY_CREDENTIAL } from '../servers.ts'
import { jsonResponse } from './captured-response.ts'
import { profilesReached } from './reached.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

const ANSWER = {
  id: 'compat',
  object: 'chat.completion',
  model: 'mistral-large-latest',
  created: 0,
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }],
}

/**
 * Mistral's SDK (`@mistralai/mistralai@2.7.0`): `chat.complete` parses the request with its zod outbound schema
 * (`ChatCompletionRequest$outboundSchema`; a tool's `function.parameters` is `z.record(z.string(), z.any())`) before
 * sending, so it refuses what its request model cannot take and reshapes what it serializes. The SDK's own
 * `HTTPClient` takes a `fetcher`, which captures the request; nothing is sent. Runs on the column DSH places the
 * `mistral` provider in.
 */
export const mistralJudge: Judge = {
  id: 'mistral-sdk',
  source:
    '@mistralai/mistralai@2.7.0 chat.complete → ChatCompletionRequest$outboundSchema (HTTPClient fetcher)',
  profiles: profilesReached([{ provider: 'mistral', model: 'mistral-large-latest' }]),
  async judge(schema: JsonObject, toolName: string): Promise<JudgeOutcome> {
    let sent: unknown
    const httpClient = new HTTPClient({
      fetcher: async (request) => {
        const body = JSON.parse(await (request as Request).text()) as {
          tools?: { function?: { parameters?: unknown } }[]
        }
        sent = body.tools?.[0]?.function?.parameters
        return jsonResponse(ANSWER)
      },
    })
    const client = new Mistral({ apiKey: DUMMY_CREDENTIAL, httpClient, retryConfig: { strategy: 'none' } })
    try {
      await client.chat.complete({
        model: 'mistral-large-latest',
        messages: [{ role: 'user', content: 'compat' }],
        tools: [{ type: 'function', function: { name: toolName, parameters: structuredClone(schema) } }],
      })
    } catch (error) {
      return refusal(error)
    }
    if (sent === undefined) return refusal(new Error('the SDK sent no tool parameters'))
    return compared(jsonDifferences(schema, sent))
  },
}
