import type { JsonObject } from '@dsh-harden/tools'
import { GoogleGenAI } from '@google/genai'
import { jsonDifferences } from '../diff.ts'
import { DUMMY_CREDENTIAL } from '../servers.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

interface CapturedDeclaration {
  readonly parameters?: unknown
  readonly parametersJsonSchema?: unknown
}

/**
 * Google's js-genai (`@google/genai@3.3.0`): `generateContent` runs `tTool` → `processJsonSchema` on every function
 * declaration's `parameters` before sending. The SDK's `httpOptions.fetch` hook receives the finished request, so the
 * judge sees exactly what the SDK would send, and nothing leaves the process. Type names the SDK upper-cases
 * (`object` → `OBJECT`) are not counted as changes; the API reads both.
 */
export const geminiSdkJudge: Judge = {
  id: 'google-genai',
  source: '@google/genai@3.3.0 tTool → processJsonSchema (via models.generateContent)',
  profiles: ['gemini'],
  async judge(schema: JsonObject, toolName: string): Promise<JudgeOutcome> {
    let sent: CapturedDeclaration | undefined
    const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as {
        tools?: { functionDeclarations?: CapturedDeclaration[] }[]
      }
      sent = body.tools?.[0]?.functionDeclarations?.[0]
      const answer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }] }
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }
    const client = new GoogleGenAI({
      apiKey: DUMMY_CREDENTIAL,
      httpOptions: { fetch, retryOptions: { attempts: 1 } },
    })
    try {
      await client.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'compat',
        // The SDK edits the declaration in place; it gets its own copy.
        config: {
          tools: [{ functionDeclarations: [{ name: toolName, parameters: structuredClone(schema) }] }],
        },
      })
    } catch (error) {
      return refusal(error)
    }
    if (sent === undefined) return refusal(new Error('the SDK sent no function declaration'))
    const after = sent.parameters ?? sent.parametersJsonSchema
    return compared(
      jsonDifferences(schema, after, {
        sameString: (left, right, path) => path.at(-1) === 'type' && left.toUpperCase() === right,
      }),
    )
  },
}
