import { getBuiltinProviders } from '@earendil-works/pi-ai/providers/all'
import { describe, expect, it } from 'vitest'
import { PROFILE_IDS, placeRoute } from '../src/index.ts'

const profileOf = (facts: Parameters<typeof placeRoute>[0]) => placeRoute(facts).profile

describe('placeRoute: what serves the request decides, not only its name', () => {
  it('every pi-ai 0.82.1 provider key is placed on a real profile, with a reason', () => {
    for (const provider of [...getBuiltinProviders(), 'radius', 'deepseek-official']) {
      const placed = placeRoute({ provider })
      expect(PROFILE_IDS, provider).toContain(placed.profile)
      expect(placed.why.length, provider).toBeGreaterThan(10)
    }
  })

  it('a hand-declared openai-completions route finds the local engine by its default port', () => {
    const local = (baseURL: string) => profileOf({ provider: 'local', api: 'openai-completions', baseURL })
    expect(local('http://localhost:11434/v1')).toBe('ollama')
    expect(local('http://127.0.0.1:1234/v1')).toBe('llama-cpp')
    expect(local('http://localhost:8080/v1')).toBe('llama-cpp')
    expect(local('http://192.168.1.20:8000/v1')).toBe('vllm')
    expect(local('http://gpu-box:30000/v1')).toBe('vllm')
    // A public host on a common port is any proxy: the port says nothing there.
    expect(local('https://gateway.example.com:8000/v1')).toBe('conservative')
  })

  it('the endpoint beats a catalog key pointed elsewhere, and a key naming the engine places it anywhere', () => {
    expect(profileOf({ provider: 'openai', baseURL: 'http://localhost:11434/v1' })).toBe('ollama')
    expect(profileOf({ provider: 'ollama', baseURL: 'https://ollama.internal.example/v1' })).toBe('ollama')
    expect(profileOf({ provider: 'lmstudio' })).toBe('llama-cpp')
    expect(profileOf({ provider: 'my-vllm' })).toBe('vllm')
  })

  it('a known host is served by its provider, gateways still by model id', () => {
    expect(
      profileOf({ provider: 'x', baseURL: 'https://openrouter.ai/api/v1', model: 'google/gemini-2.5-pro' }),
    ).toBe('gemini')
    expect(profileOf({ provider: 'x', baseURL: 'https://my-res.openai.azure.com/openai/v1' })).toBe('openai')
    expect(profileOf({ provider: 'x', baseURL: 'https://api.deepseek.com/v1' })).toBe('deepseek')
    expect(profileOf({ provider: 'x', baseURL: 'https://us-central1-aiplatform.googleapis.com/v1' })).toBe(
      'gemini',
    )
    expect(profileOf({ provider: 'x', baseURL: 'https://my-res.cognitiveservices.azure.com/openai' })).toBe(
      'openai',
    )
    expect(
      profileOf({
        provider: 'x',
        baseURL: 'https://bedrock-runtime.us-east-1.amazonaws.com',
        model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      }),
    ).toBe('anthropic')
  })

  it('Bedrock and Vercel place Claude on anthropic and every other family conservatively', () => {
    expect(
      profileOf({ provider: 'amazon-bedrock', model: 'anthropic.claude-3-5-sonnet-20240620-v1:0' }),
    ).toBe('anthropic')
    for (const model of [
      'amazon.nova-pro-v1:0',
      'meta.llama3-70b-instruct-v1:0',
      'mistral.mistral-large-2402-v1:0',
    ])
      expect(profileOf({ provider: 'amazon-bedrock', model }), model).toBe('conservative')
    expect(profileOf({ provider: 'vercel-ai-gateway', model: 'anthropic/claude-sonnet-4' })).toBe('anthropic')
    for (const model of ['amazon/nova-pro', 'zai/glm-4.6', 'google/gemini-2.5-pro', 'openai/gpt-5'])
      expect(profileOf({ provider: 'vercel-ai-gateway', model }), model).toBe('conservative')
  })

  it('ollama/gpt-oss:20b and gpt-oss:20b are not OpenAI cloud', () => {
    expect(profileOf({ provider: 'custom', model: 'ollama/gpt-oss:20b' })).toBe('ollama')
    expect(profileOf({ provider: 'custom', model: 'gpt-oss:20b' })).toBe('ollama')
    expect(profileOf({ provider: 'openrouter', model: 'openai/gpt-oss-120b' })).toBe('openai')
    expect(profileOf({ provider: 'custom', model: 'gpt-5' })).toBe('openai')
  })

  it('the API shape places a route its key and endpoint do not', () => {
    expect(
      profileOf({ provider: 'acme', api: 'anthropic-messages', baseURL: 'https://acme.example/v1' }),
    ).toBe('anthropic')
    expect(
      profileOf({ provider: 'acme', api: 'openai-completions', baseURL: 'https://acme.example/v1' }),
    ).toBe('conservative')
  })

  it('an unknown route gets conservative, never another route’s profile, and says why', () => {
    placeRoute({ provider: 'anthropic' })
    const unknown = placeRoute({ provider: 'acme-gateway', model: 'acme-large' })
    expect(unknown.profile).toBe('conservative')
    expect(unknown.why).toMatch(/no rule knows this route/)
    expect(placeRoute({}).profile).toBe('conservative')
  })
})
