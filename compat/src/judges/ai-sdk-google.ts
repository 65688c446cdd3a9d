import { createGoogleGenerativeAI } from '@ai-sdk/google'
import type { JsonObject } from '@dsh-harden/tools'
import { jsonDifferences } from '../diff.ts'
import { DUMMY_CREDENTIAL } from '../servers.ts'
import { jsonResponse } from './captured-response.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

interface SentDeclaration {
  readonly parameters?: unknown
  readonly parametersJsonSchema?: unknown
}

const ANSWER = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }

/**
 * The Vercel AI SDK's Gemini provider (`@ai-sdk/google@3.0.141`): `prepareFunctionDeclaration` sends every tool's
 * schema through `convertJSONSchemaToOpenAPISchema` (`src/convert-json-schema-to-openapi-schema.ts`) as `parameters`,
 * falling back to `parametersJsonSchema` only for a recursive `$ref`. The converter is not exported, so the judge
 * reaches it the way an app does: the provider's language model `doGenerate` with a `fetch` that captures the request
 * body. (4.x sends every schema unchanged as `parametersJsonSchema`, so it has no conversion to judge.)
 */
export const aiSdkGoogleJudge: Judge = {
  id: 'ai-sdk-google',
  source:
    '@ai-sdk/google@3.0.141 convertJSONSchemaToOpenAPISchema (via createGoogleGenerativeAI → languageModel.doGenerate)',
  profiles: ['gemini'],
  async judge(schema: JsonObject, toolName: string): Promise<JudgeOutcome> {
    let sent: SentDeclaration | undefined
    const google = createGoogleGenerativeAI({
      apiKey: DUMMY_CREDENTIAL,
      fetch: async (_input, init) => {
        const body = JSON.parse(String(init?.body)) as {
          tools?: { functionDeclarations?: SentDeclaration[] }[]
        }
        sent = body.tools?.[0]?.functionDeclarations?.[0]
        return jsonResponse(ANSWER)
      },
    })
    try {
      await google.languageModel('gemini-2.5-flash').doGenerate({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'compat' }] }],
        tools: [{ type: 'function', name: toolName, inputSchema: structuredClone(schema) }],
      })
    } catch (error) {
      return refusal(error)
    }
    if (sent === undefined) return refusal(new Error('the provider sent no function declaration'))
    return compared(jsonDifferences(schema, sent.parameters ?? sent.parametersJsonSchema))
  },
}
