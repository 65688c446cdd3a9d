import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime'
import type { JsonObject } from '@dsh-harden/tools'
import { jsonDifferences } from '../diff.ts'
import { DUMMY_CREDENTIAL } from '../servers.ts'
import { profilesReached } from './reached.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

class Captured extends Error {}

/** The Converse model families DSH's `amazon-bedrock` route reaches; the table asks where each is placed. */
const BEDROCK_MODELS = [
  'anthropic.claude-sonnet-4-20250514-v1:0',
  'amazon.nova-pro-v1:0',
  'meta.llama3-3-70b-instruct-v1:0',
  'mistral.mistral-large-2407-v1:0',
]

/**
 * The Bedrock runtime SDK (`@aws-sdk/client-bedrock-runtime@3.1178.0`): `ConverseCommand` serializes
 * `toolConfig.tools[].toolSpec.inputSchema.json` as a Smithy document, signs the request and hands it to the request
 * handler, which captures the body and stops. Client-side it checks no member constraint (tool name pattern, lengths):
 * AWS SDK v3 leaves those to the service, so the judge shows what the SDK itself changes or refuses before sending.
 * Runs on every column DSH places a Bedrock model family in.
 */
export const bedrockJudge: Judge = {
  id: 'bedrock-sdk',
  source:
    '@aws-sdk/client-bedrock-runtime@3.1178.0 ConverseCommand serializer (request handler captures the body)',
  profiles: profilesReached(BEDROCK_MODELS.map((model) => ({ provider: 'amazon-bedrock', model }))),
  async judge(schema: JsonObject, toolName: string): Promise<JudgeOutcome> {
    let sent: unknown
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      credentials: { accessKeyId: DUMMY_CREDENTIAL, secretAccessKey: DUMMY_CREDENTIAL },
      maxAttempts: 1,
      requestHandler: {
        handle: async (request: { body?: unknown }) => {
          const text =
            typeof request.body === 'string'
              ? request.body
              : new TextDecoder().decode(request.body as Uint8Array)
          const body = JSON.parse(text) as {
            toolConfig?: { tools?: { toolSpec?: { inputSchema?: { json?: unknown } } }[] }
          }
          sent = body.toolConfig?.tools?.[0]?.toolSpec?.inputSchema?.json
          throw new Captured('captured before sending')
        },
      },
    })
    try {
      await client.send(
        new ConverseCommand({
          modelId: BEDROCK_MODELS[0],
          messages: [{ role: 'user', content: [{ text: 'compat' }] }],
          toolConfig: {
            tools: [
              { toolSpec: { name: toolName, inputSchema: { json: structuredClone(schema) as never } } },
            ],
          },
        }),
      )
    } catch (error) {
      if (!(error instanceof Captured)) return refusal(error)
    }
    if (sent === undefined) return refusal(new Error('the SDK sent no tool inputSchema'))
    return compared(jsonDifferences(schema, sent))
  },
}
