import type { JsonObject, ProfileId } from '@dsh-harden/tools'
import type { Api, Context, Model, StreamFunction, Tool } from '@earendil-works/pi-ai'
import { stream as anthropicMessages } from '@earendil-works/pi-ai/api/anthropic-messages'
import { stream as googleGenerativeAi } from '@earendil-works/pi-ai/api/google-generative-ai'
import { stream as openAiCodexResponses } from '@earendil-works/pi-ai/api/openai-codex-responses'
import { stream as openAiCompletions } from '@earendil-works/pi-ai/api/openai-completions'
import { stream as openAiResponses } from '@earendil-works/pi-ai/api/openai-responses'
import { ANTHROPIC_MODELS } from '@earendil-works/pi-ai/providers/anthropic.models'
import { DEEPSEEK_MODELS } from '@earendil-works/pi-ai/providers/deepseek.models'
import { GOOGLE_MODELS } from '@earendil-works/pi-ai/providers/google.models'
import { OPENAI_MODELS } from '@earendil-works/pi-ai/providers/openai.models'
import { OPENAI_CODEX_MODELS } from '@earendil-works/pi-ai/providers/openai-codex.models'
import { jsonDifferences } from '../diff.ts'
import { DUMMY_CREDENTIAL } from '../servers.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

type AnyStream = StreamFunction<Api, { apiKey?: string; onPayload?: (payload: unknown) => unknown }>

interface Route {
  readonly stream: AnyStream
  readonly models: Readonly<Record<string, Model<Api>>>
  /** Where the request body carries the tool's schema. */
  readonly schemaOf: (payload: Record<string, unknown>) => unknown
}

// Not a credential: an unsigned token shaped like the Codex OAuth token, so pi-ai's Codex route builds its request.
const CODEX_TOKEN = `e30.${btoa(JSON.stringify({ 'https://api.openai.com/auth': { chatgpt_account_id: 'compat' } }))}.x`

type Loose = Record<string, unknown> & { readonly [key: string]: unknown }
const at = (value: unknown, ...path: (string | number)[]): unknown => {
  let node = value
  for (const key of path) node = node === null || typeof node !== 'object' ? undefined : (node as Loose)[key]
  return node
}

/** The pi-ai api each route reaches from DSH's `dsh-llm-pi-ai` (SOURCES.md §6), and where its body puts the schema. */
const ROUTES: Partial<Record<ProfileId, Route>> = {
  deepseek: {
    stream: openAiCompletions as AnyStream,
    models: DEEPSEEK_MODELS,
    schemaOf: (p) => at(p, 'tools', 0, 'function', 'parameters'),
  },
  openai: {
    stream: openAiResponses as AnyStream,
    models: OPENAI_MODELS,
    schemaOf: (p) => at(p, 'tools', 0, 'parameters'),
  },
  codex: {
    stream: openAiCodexResponses as AnyStream,
    models: OPENAI_CODEX_MODELS,
    schemaOf: (p) => at(p, 'tools', 0, 'parameters'),
  },
  anthropic: {
    stream: anthropicMessages as AnyStream,
    models: ANTHROPIC_MODELS,
    schemaOf: (p) => at(p, 'tools', 0, 'input_schema'),
  },
  gemini: {
    stream: googleGenerativeAi as AnyStream,
    models: GOOGLE_MODELS,
    schemaOf: (p) => at(p, 'config', 'tools', 0, 'functionDeclarations', 0, 'parametersJsonSchema'),
  },
}

class Captured extends Error {}

/** Whether DSH users reach `profile` through pi-ai (the table then also judges the schema pi-ai sends). */
export function reachedThroughPiAi(profile: ProfileId): boolean {
  return ROUTES[profile] !== undefined
}

/**
 * The tool schema `@earendil-works/pi-ai@0.82.1` would put on the wire for `profile`: its real request building for
 * the route's api, stopped at its `onPayload` hook (before any client call), or why it built none.
 */
export async function piAiSends(
  schema: JsonObject,
  toolName: string,
  profile: ProfileId,
): Promise<{ readonly sent: unknown } | { readonly error: string }> {
  const route = ROUTES[profile]
  const model = route && Object.values(route.models)[0]
  if (!route || !model) return { error: `pi-ai: DSH reaches no ${profile} route through pi-ai` }
  const tool = {
    name: toolName,
    description: 'compat',
    parameters: structuredClone(schema),
  } as unknown as Tool
  const context: Context = { messages: [{ role: 'user', content: 'compat', timestamp: 0 }], tools: [tool] }
  let payload: Record<string, unknown> | undefined
  const events = route.stream(model, context, {
    apiKey: profile === 'codex' ? CODEX_TOKEN : DUMMY_CREDENTIAL,
    onPayload: (body) => {
      payload = body as Record<string, unknown>
      throw new Captured('stopped before sending')
    },
  })
  const result = await events.result()
  if (payload === undefined) return { error: result.errorMessage ?? 'pi-ai built no request' }
  const sent = route.schemaOf(payload)
  return sent === undefined ? { error: 'pi-ai sent the tool without a schema' } : { sent }
}

/**
 * pi-ai, the library DSH's `dsh-llm-pi-ai` sends every request through, as a judge: `changed` is what pi-ai itself
 * does to a schema (its Anthropic route keeps only `type`, `properties` and `required` at the root), so a wire the
 * projection made must survive it.
 */
export const piAiJudge: Judge = {
  id: 'pi-ai',
  source: '@earendil-works/pi-ai@0.82.1 api/<route>.js stream → onPayload (the request dsh-llm-pi-ai sends)',
  profiles: ['deepseek', 'openai', 'codex', 'anthropic', 'gemini'],
  async judge(schema: JsonObject, toolName: string, profile: ProfileId): Promise<JudgeOutcome> {
    const sends = await piAiSends(schema, toolName, profile)
    if ('error' in sends) return refusal(new Error(sends.error))
    return compared(jsonDifferences(schema, sends.sent))
  },
}
