import { getBuiltinProviders } from '@earendil-works/pi-ai/providers/all'
import { describe, expect, it } from 'vitest'
import { PROFILE_IDS } from '../src/index.ts'
import { PROVIDER_KEYS, profileForProviderKey, profileForRoute } from '../src/projection/routes.ts'

/** Issue 16 item 3: every provider key of the installed pi-ai (what `dsh-llm-pi-ai` routes through) is placed. */
describe('profileForRoute places every pi-ai provider key', () => {
  // `radius` is pi-ai's dynamic gateway: exported beside the built-in catalog, not in it.
  const keys = [...getBuiltinProviders(), 'radius']

  it('every key the installed pi-ai lists is in the table, with a reason', () => {
    expect(keys.length).toBeGreaterThan(30)
    const missing = keys.filter((key) => profileForProviderKey(key) === undefined)
    expect(missing).toEqual([])
    for (const key of keys) expect(profileForProviderKey(key)?.why.length).toBeGreaterThan(10)
  })

  it('the table lists no key pi-ai does not have, besides DSH’s own deepseek-official', () => {
    const extra = [...PROVIDER_KEYS.keys()].filter((key) => !keys.includes(key))
    expect(extra).toEqual(['deepseek-official'])
  })

  it('a placed key gets a real profile; only a gateway without a known model stays unplaced', () => {
    const unplaced = keys.filter((key) => profileForRoute({ provider: key }) === undefined)
    expect(unplaced).toEqual(['radius'])
    for (const key of keys) {
      const profile = profileForRoute({ provider: key })
      if (profile !== undefined) expect(PROFILE_IDS).toContain(profile)
    }
  })

  it('routes whose sources show their own rules get their own profile', () => {
    expect(profileForRoute({ provider: 'moonshotai' })).toBe('moonshot')
    expect(profileForRoute({ provider: 'xai' })).toBe('openai-strict')
    expect(profileForRoute({ provider: 'amazon-bedrock' })).toBe('anthropic')
    expect(profileForRoute({ provider: 'openai-codex' })).toBe('codex')
  })

  it('gateways follow the model id, and fall back to the API they speak', () => {
    expect(profileForRoute({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4' })).toBe('anthropic')
    expect(profileForRoute({ provider: 'openrouter', model: 'google/gemini-2.5-pro' })).toBe('gemini')
    expect(profileForRoute({ provider: 'openrouter', model: 'meta-llama/llama-4' })).toBe('openai')
    expect(profileForRoute({ provider: 'radius', model: 'claude-opus-4' })).toBe('anthropic')
    // A host serves the model behind its own validator: the model's vendor does not decide.
    expect(profileForRoute({ provider: 'huggingface', model: 'deepseek-ai/DeepSeek-V3' })).toBe('openai')
  })

  it('a key the table does not know is read by its family name, then by the model id', () => {
    expect(profileForRoute({ provider: 'my-anthropic-proxy' })).toBe('anthropic')
    expect(profileForRoute({ provider: 'custom', model: 'gemini-2.5-flash' })).toBe('gemini')
    expect(profileForRoute({ provider: 'custom', model: 'llama' })).toBeUndefined()
  })
})
