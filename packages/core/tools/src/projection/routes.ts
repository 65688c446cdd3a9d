import type { ProfileId } from './types.ts'

/**
 * Which profile a model route DSH reaches gets, as data: every provider key of `@earendil-works/pi-ai` 0.82.1 (what
 * `dsh-llm-pi-ai` routes through; `getBuiltinProviders()` plus the dynamic `radius` gateway) and DSH's own
 * `deepseek-official`. PROFILES.md ("Routes through pi-ai") gives the source of every row.
 *
 * - `profile`: the route's API applies that profile's rules.
 * - `byModel`: a gateway that forwards to the model's own provider, so the model id decides (`MODEL_RULES`); where
 *   the gateway speaks one API for every model, `profile` is the fallback for a model id no rule knows.
 */
export interface RoutePlacement {
  readonly profile?: ProfileId | undefined
  readonly byModel?: boolean | undefined
  /** Why, in one line (the source, or why no source gives the route a rule of its own). */
  readonly why: string
}

const OPENAI_COMPATIBLE =
  'pi-ai sends openai-completions with `parameters` unchanged; no published rule of this host differs from OpenAI chat completions'
const ANTHROPIC_API =
  'every pi-ai model of this key speaks anthropic-messages (pi-ai 0.82.1 `models.generated.js`)'

export const PROVIDER_KEYS: ReadonlyMap<string, RoutePlacement> = new Map<string, RoutePlacement>([
  ['deepseek', { profile: 'deepseek', why: 'DeepSeek chat completions (zed-industries/zed#64386)' }],
  ['deepseek-official', { profile: 'deepseek', why: "DSH's own dsh-llm-deepseek route key" }],
  ['openai', { profile: 'openai', why: 'OpenAI Responses / chat completions, non-strict' }],
  ['azure-openai-responses', { profile: 'openai', why: 'the OpenAI Responses API hosted by Azure' }],
  [
    'openai-codex',
    { profile: 'codex', why: 'pi-ai openai-codex-responses sends strict: null (earendil-works/pi#8105)' },
  ],
  ['anthropic', { profile: 'anthropic', why: 'Anthropic Messages' }],
  ['kimi-coding', { profile: 'anthropic', why: ANTHROPIC_API }],
  ['minimax', { profile: 'anthropic', why: ANTHROPIC_API }],
  ['minimax-cn', { profile: 'anthropic', why: ANTHROPIC_API }],
  ['vercel-ai-gateway', { profile: 'anthropic', why: ANTHROPIC_API }],
  [
    'amazon-bedrock',
    {
      profile: 'anthropic',
      why: 'Bedrock Converse for Claude: the same key pattern (aws-solutions-library-samples/…#709) and tool names ^[a-zA-Z0-9_-]{1,64}$ (NousResearch/hermes-agent PR #90016)',
    },
  ],
  ['google', { profile: 'gemini', why: 'Gemini function declarations' }],
  ['google-vertex', { profile: 'gemini', why: 'Gemini on Vertex' }],
  [
    'xai',
    {
      profile: 'openai-strict',
      why: 'docs.x.ai structured outputs: for tool calls "the `strict` flag is implicitly always `true`"',
    },
  ],
  [
    'moonshotai',
    { profile: 'moonshot', why: "Moonshot's own schema dialect (MoonshotAI/kimi-cli#1595, #2457, #2531)" },
  ],
  ['moonshotai-cn', { profile: 'moonshot', why: 'the same API, China endpoint' }],
  [
    'mistral',
    {
      profile: 'openai',
      why: 'the only Mistral refusal found is a schema invalid as draft-07 (SylphxAI/pdf-reader-mcp#63), which the root contract already refuses',
    },
  ],
  [
    'groq',
    {
      profile: 'openai',
      why: "Groq's refusals found ('required' without 'properties', usestrix/strix#1088) are the MCP-boundary repairs; strict models are not what pi-ai sends",
    },
  ],
  ['cerebras', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['huggingface', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['nvidia', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['together', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['zai', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['zai-coding-cn', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['qwen-token-plan', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['qwen-token-plan-cn', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['xiaomi', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['xiaomi-token-plan-ams', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['xiaomi-token-plan-cn', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['xiaomi-token-plan-sgp', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['ant-ling', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  ['cloudflare-workers-ai', { profile: 'openai', why: OPENAI_COMPATIBLE }],
  [
    'openrouter',
    {
      byModel: true,
      profile: 'openai',
      why: 'a gateway: the upstream provider of the model id validates the schema',
    },
  ],
  ['opencode', { byModel: true, profile: 'openai', why: 'a gateway: several apis, chosen per model' }],
  ['opencode-go', { byModel: true, profile: 'openai', why: 'a gateway: several apis, chosen per model' }],
  ['github-copilot', { byModel: true, profile: 'openai', why: 'a gateway to Claude, GPT and Gemini models' }],
  [
    'cloudflare-ai-gateway',
    { byModel: true, profile: 'openai', why: 'a gateway: several apis, chosen per model' },
  ],
  ['fireworks', { byModel: true, profile: 'openai', why: 'hosts several vendors behind openai-completions' }],
  [
    'radius',
    {
      byModel: true,
      why: 'a gateway with a dynamic catalog (pi-messages api): no placement without a known model id',
    },
  ],
])

// For a provider key this table does not list (a custom pi-ai provider, a renamed route): its family, by name.
const PROVIDER_FAMILIES: readonly [RegExp, ProfileId][] = [
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/anthropic|claude/i, 'anthropic'],
  [/google|gemini|vertex/i, 'gemini'],
  [/moonshot|kimi/i, 'moonshot'],
  [/openai|azure/i, 'openai'],
]
const MODEL_RULES: readonly [RegExp, ProfileId][] = [
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/claude/i, 'anthropic'],
  [/gemini/i, 'gemini'],
  [/kimi|moonshot/i, 'moonshot'],
  [/grok/i, 'openai-strict'],
  [/^(?:openai\/)?(?:gpt-|o\d)/i, 'openai'],
]

/** A model route as DSH names it: `GenerateOptions.provider` (the adapter's route key) and the model id. */
export interface ModelRoute {
  readonly provider?: string | undefined
  readonly model?: string | undefined
}

function byModelId(model: string | undefined): ProfileId | undefined {
  if (typeof model !== 'string') return undefined
  for (const [pattern, profile] of MODEL_RULES) if (pattern.test(model)) return profile
  return undefined
}

/** The profile for a route, or `undefined` when neither its provider key nor its model id places it. */
export function profileForRoute(route: ModelRoute): ProfileId | undefined {
  const { provider, model } = route
  if (typeof provider === 'string') {
    const placed = PROVIDER_KEYS.get(provider)
    if (placed !== undefined) return placed.byModel ? (byModelId(model) ?? placed.profile) : placed.profile
    for (const [pattern, profile] of PROVIDER_FAMILIES) if (pattern.test(provider)) return profile
  }
  return byModelId(model)
}

/** The placement of one provider key (`undefined`: not in the table; `profileForRoute` then reads its name). */
export function profileForProviderKey(key: string): RoutePlacement | undefined {
  return PROVIDER_KEYS.get(key)
}
