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
  /**
   * A gateway whose model ids name a family its own translation serves (Bedrock's `anthropic.claude-…`, Vercel's
   * `vendor/model`): these rules, first match, instead of the generic model-id rules; a model id none of them matches
   * gets `conservative`.
   */
  readonly families?: readonly ModelRule[] | undefined
  /** Why, in one line (the source, or why no source gives the route a rule of its own). */
  readonly why: string
}

/** A model-id pattern and the profile a route serving it gets. */
export type ModelRule = readonly [RegExp, ProfileId]

// Bedrock model ids are `<vendor>.<model>`, cross-region inference profiles prefix a region (`us.`, `eu.`, `apac.`,
// `global.`). Converse translates `toolSpec.inputSchema.json` per family: only Claude's rules are sourced.
const BEDROCK_FAMILIES: readonly ModelRule[] = [[/^(?:[a-z]+\.)?anthropic\.claude/i, 'anthropic']]
// pi-ai sends every Vercel AI Gateway model as anthropic-messages (its root rebuilt from properties/required): only an
// Anthropic model meets one set of rules; any other must also pass its vendor's, which `conservative` does.
const VERCEL_FAMILIES: readonly ModelRule[] = [[/^anthropic\//i, 'anthropic']]

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
  [
    'vercel-ai-gateway',
    {
      byModel: true,
      families: VERCEL_FAMILIES,
      profile: 'anthropic',
      why: `${ANTHROPIC_API}; the gateway forwards \`vendor/model\` to that vendor, so a non-Anthropic model must pass both`,
    },
  ],
  [
    'amazon-bedrock',
    {
      byModel: true,
      families: BEDROCK_FAMILIES,
      profile: 'anthropic',
      why: 'Bedrock Converse for Claude: the same key pattern (aws-solutions-library-samples/…#709) and tool names ^[a-zA-Z0-9_-]{1,64}$ (NousResearch/hermes-agent PR #90016); other model families by their id',
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
const PROVIDER_FAMILIES: readonly ModelRule[] = [
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/anthropic|claude/i, 'anthropic'],
  [/google|gemini|vertex/i, 'gemini'],
  [/moonshot|kimi/i, 'moonshot'],
  [/ollama/i, 'ollama'],
  [/lm-?studio|llama[-_.]?cpp|llamafile/i, 'llama-cpp'],
  [/vllm|sglang/i, 'vllm'],
  [/openai|azure/i, 'openai'],
]
const MODEL_RULES: readonly ModelRule[] = [
  // A local server's own prefix (litellm / opencode spelling) or Ollama's `name:tag`: served by that engine.
  [/^ollama(?:_chat)?\//i, 'ollama'],
  [/^(?:lm_?studio|llama[-_]?cpp)\//i, 'llama-cpp'],
  [/^(?:hosted_)?vllm\/|^sglang\//i, 'vllm'],
  [/^[^/:]+:[^/:]+$/, 'ollama'],
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/claude/i, 'anthropic'],
  [/gemini/i, 'gemini'],
  [/kimi|moonshot/i, 'moonshot'],
  [/grok/i, 'openai-strict'],
  // `gpt-oss` is an open-weights model: whoever serves it is not OpenAI's API.
  [/^(?:openai\/)?(?:gpt-(?!oss)|o\d)/i, 'openai'],
]

/** A model route as DSH names it: `GenerateOptions.provider` (the adapter's route key) and the model id. */
export interface ModelRoute {
  readonly provider?: string | undefined
  readonly model?: string | undefined
}

/**
 * Everything known about what serves a request: the route key and model id DSH names, and, where the route's
 * configuration says, the wire protocol (pi-ai's `api`: `openai-completions`, `anthropic-messages`, …) and endpoint.
 */
export interface RouteFacts extends ModelRoute {
  readonly api?: string | undefined
  readonly baseURL?: string | undefined
}

/** Where a route was placed, and why, in one line a user can act on. */
export interface Placement {
  readonly profile: ProfileId
  readonly why: string
}

function firstMatch(rules: readonly ModelRule[], text: string | undefined): ProfileId | undefined {
  if (typeof text !== 'string') return undefined
  for (const [pattern, profile] of rules) if (pattern.test(text)) return profile
  return undefined
}

// Default ports of the local servers' OpenAI-compatible endpoints (each project's documentation). A port is a
// heuristic: another server may listen there, and a route key naming the engine (`ollama`, `lmstudio`, …) says it
// outright (PROFILES.md, "Routes").
const LOCAL_PORTS: ReadonlyMap<string, readonly [ProfileId, string]> = new Map([
  ['11434', ['ollama', 'Ollama']],
  ['1234', ['llama-cpp', 'LM Studio']],
  ['8080', ['llama-cpp', 'llama.cpp llama-server']],
  ['8000', ['vllm', 'vLLM']],
  ['30000', ['vllm', 'SGLang']],
])

/** Hosts whose API is known: the pi-ai provider key that serves them (so gateways still go by model id). */
const HOSTS: readonly (readonly [RegExp, string])[] = [
  [/^api\.deepseek\.com$/, 'deepseek'],
  [/^api\.openai\.com$/, 'openai'],
  [/\.(?:openai\.azure|cognitiveservices\.azure)\.com$/, 'azure-openai-responses'],
  [/^chatgpt\.com$/, 'openai-codex'],
  [/^api\.anthropic\.com$/, 'anthropic'],
  [/^generativelanguage\.googleapis\.com$/, 'google'],
  // `<region>-aiplatform.googleapis.com` and the global `aiplatform.googleapis.com`.
  [/(?:^|[.-])aiplatform\.googleapis\.com$/, 'google-vertex'],
  [/^api\.x\.ai$/, 'xai'],
  [/^api\.moonshot\.(?:ai|cn)$/, 'moonshotai'],
  [/^openrouter\.ai$/, 'openrouter'],
  [/^ai-gateway\.vercel\.sh$/, 'vercel-ai-gateway'],
  [/^bedrock-runtime(?:-fips)?\.[a-z0-9-]+\.amazonaws\.com$/, 'amazon-bedrock'],
]

// A default port says which engine listens only on this machine or the local network; a public host on port 8000
// is as likely any proxy.
const LOCAL_HOST =
  /^(?:localhost|host\.docker\.internal|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|[^.]+|.+\.(?:local|lan|internal|home\.arpa))$/i

function parseURL(baseURL: string | undefined): URL | undefined {
  if (typeof baseURL !== 'string') return undefined
  try {
    return new URL(baseURL)
  } catch {
    return undefined
  }
}

/** A local engine by its default port on a local host. */
function localEngine(url: URL): Placement | undefined {
  const engine = LOCAL_HOST.test(url.hostname) ? LOCAL_PORTS.get(url.port) : undefined
  if (engine === undefined) return undefined
  const [profile, name] = engine
  return {
    profile,
    why: `base URL ${url.host} is ${name}'s default port (a heuristic: a route key naming the engine says it for sure)`,
  }
}

function hostKey(url: URL): string | undefined {
  const host = url.hostname.toLowerCase()
  for (const [pattern, key] of HOSTS) if (pattern.test(host)) return key
  return undefined
}

const API_SHAPES: ReadonlyMap<string, ProfileId> = new Map([
  ['anthropic-messages', 'anthropic'],
  ['google-generative-ai', 'gemini'],
  ['google-vertex', 'gemini'],
  ['openai-codex-responses', 'codex'],
])

function byKey(facts: RouteFacts): Placement | undefined {
  const { provider, model } = facts
  if (typeof provider !== 'string') return undefined
  const placed = PROVIDER_KEYS.get(provider)
  if (placed !== undefined) {
    if (!placed.byModel || typeof model !== 'string') {
      if (placed.profile === undefined) return undefined
      return { profile: placed.profile, why: `provider key ${provider}: ${placed.why}` }
    }
    const family =
      placed.families === undefined ? firstMatch(MODEL_RULES, model) : firstMatch(placed.families, model)
    if (family !== undefined)
      return { profile: family, why: `${provider} forwards model ${model} to its vendor's rules` }
    if (placed.families !== undefined)
      return {
        profile: 'conservative',
        why: `${provider} model ${model}: no source gives the rules this gateway applies to it`,
      }
    if (placed.profile !== undefined)
      return { profile: placed.profile, why: `provider key ${provider}: ${placed.why}` }
    return undefined
  }
  const family = firstMatch(PROVIDER_FAMILIES, provider)
  return family === undefined
    ? undefined
    : { profile: family, why: `provider key ${provider} names the ${family} family` }
}

/** A placement by the rules of a source, or `undefined` where none places the route. */
function placedBySource(facts: RouteFacts): Placement | undefined {
  const url = parseURL(facts.baseURL)
  const local = url === undefined ? undefined : localEngine(url)
  if (local !== undefined) return local
  const host = url === undefined ? undefined : hostKey(url)
  const keyed = byKey(host === undefined ? facts : { ...facts, provider: host })
  if (keyed !== undefined) return keyed
  const shape = typeof facts.api === 'string' ? API_SHAPES.get(facts.api) : undefined
  if (shape !== undefined) return { profile: shape, why: `the route speaks ${facts.api}` }
  const model = firstMatch(MODEL_RULES, facts.model)
  return model === undefined ? undefined : { profile: model, why: `model id ${facts.model}` }
}

/**
 * The profile of the route that serves a request, and why, from everything known about it: the endpoint first (a
 * local engine's default port, a known host), then the provider key (gateways by model id), the API shape, the
 * key's family name and the model id. A route none of them places gets `conservative`, whose wire every route takes.
 */
export function placeRoute(facts: RouteFacts): Placement {
  return (
    placedBySource(facts) ?? {
      profile: 'conservative',
      why: 'no rule knows this route (provider key, API, base URL and model id); conservative is accepted by every route',
    }
  )
}

/** The profile a source gives a route, or `undefined` where none does (`placeRoute` then gives `conservative`). */
export function profileForRoute(route: RouteFacts): ProfileId | undefined {
  return placedBySource(route)?.profile
}

/** The placement of one provider key (`undefined`: not in the table; `profileForRoute` then reads its name). */
export function profileForProviderKey(key: string): RoutePlacement | undefined {
  return PROVIDER_KEYS.get(key)
}
