import type { Context } from '@deepseek-ai/cordis'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RouteProjector } from '../src/route/route-projection.ts'

type Listener = (...args: never[]) => unknown

/** A context whose settings service holds `providers` for the `llm-pi-ai` namespace, as dsh-llm-pi-ai registers it. */
function contextWith(providers: Record<string, unknown>, logged?: string[]) {
  const listeners = new Map<string, Listener>()
  const ctx = {
    listeners,
    ...(logged === undefined ? {} : { logger: { info: (line: string) => logged.push(line) } }),
    get: (name: string) =>
      name === 'settings'
        ? { get: (ns: string) => (ns === 'llm-pi-ai' ? { providers } : undefined) }
        : undefined,
    on: (name: string, listener: Listener) => {
      listeners.set(name, listener)
      return () => listeners.delete(name)
    },
  }
  return ctx as unknown as Context
}

const NO_TOOLS = () => new Map<string, object>()

describe('the overlay places each route by what serves it, and says so once', () => {
  it('a hand-declared pi-ai route at Ollama’s port gets the ollama profile, read from the route’s settings', () => {
    const told: string[] = []
    const routes = new RouteProjector(undefined, undefined, undefined, (line) => told.push(line))
    const dispose = routes.install(
      contextWith({ local: { api: 'openai-completions', baseURL: 'http://localhost:11434/v1' } }),
      NO_TOOLS,
    )
    const agent = { options: { provider: 'local', model: 'gpt-oss:20b' } }
    expect(routes.routeOf({}, { agent })).toBe('ollama')
    expect(routes.routeOf({}, { agent })).toBe('ollama')
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(
      /route "local\/gpt-oss:20b" at http:\/\/localhost:11434\/v1 gets the ollama profile/,
    )
    dispose()
  })

  it('an unknown route gets conservative, not the profile of the route seen before it', () => {
    const told: string[] = []
    const logged: string[] = []
    const routes = new RouteProjector(undefined, undefined, undefined, (line) => told.push(line))
    routes.install(contextWith({}, logged), NO_TOOLS)
    expect(routes.routeOf({ variables: { provider: 'anthropic' } }, { agent: {} })).toBe('anthropic')
    expect(
      routes.routeOf({ variables: { provider: 'acme-gateway', model: 'acme-large' } }, { agent: {} }),
    ).toBe('conservative')
    // A provider key's own row is only logged; a route no key places is told to the user, once.
    expect(logged.filter((line) => line.includes('gets the anthropic profile'))).toHaveLength(1)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(/gets the conservative profile \(no rule knows this route/)
    expect(told[0]).toMatch(/set `route: <profile>` in the dsh-harden row/)
  })

  it('a gateway is placed by the model it forwards to', () => {
    const routes = new RouteProjector()
    expect(
      routes.routeOf({ variables: { provider: 'amazon-bedrock', model: 'amazon.nova-pro-v1:0' } }, undefined),
    ).toBe('conservative')
    expect(
      routes.routeOf(
        { variables: { provider: 'amazon-bedrock', model: 'anthropic.claude-3-haiku-20240307-v1:0' } },
        undefined,
      ),
    ).toBe('anthropic')
  })

  it('without a notice sink the placement goes to DSH’s logger, once, and the model request is placed the same way', () => {
    const logged: string[] = []
    const routes = new RouteProjector()
    const ctx = contextWith({}, logged)
    routes.install(ctx, NO_TOOLS)
    const stream = (ctx as unknown as { listeners: Map<string, Listener> }).listeners.get(
      'llm/stream',
    ) as unknown as (options: object, next: () => unknown) => unknown
    stream({ provider: 'acme-gateway', model: 'acme-large' }, () => undefined)
    expect(routes.argumentProfile()).toBe('conservative')
    expect(routes.routeOf({ variables: { provider: 'acme-gateway', model: 'acme-large' } }, undefined)).toBe(
      'conservative',
    )
    expect(logged).toHaveLength(1)
  })

  it('the profile of a route never depends on the routes seen before it (fast-check)', () => {
    const route = fc.record(
      {
        provider: fc.constantFrom(
          'anthropic',
          'google',
          'openrouter',
          'amazon-bedrock',
          'local',
          'acme',
          'ollama',
        ),
        model: fc.constantFrom(
          'claude-sonnet-4',
          'gemini-2.5-pro',
          'gpt-oss:20b',
          'amazon.nova-pro-v1:0',
          'house',
        ),
      },
      { requiredKeys: [] },
    )
    const settings = { local: { api: 'openai-completions', baseURL: 'http://localhost:8000/v1' } }
    fc.assert(
      fc.property(
        fc.array(route, { maxLength: 6 }),
        route.filter((r) => Object.keys(r).length > 0),
        (before, last) => {
          const fresh = new RouteProjector()
          fresh.install(contextWith(settings), NO_TOOLS)
          const expected = fresh.routeOf({ variables: last }, undefined)
          const used = new RouteProjector()
          const ctx = contextWith(settings)
          used.install(ctx, NO_TOOLS)
          const stream = (ctx as unknown as { listeners: Map<string, Listener> }).listeners.get(
            'llm/stream',
          ) as unknown as (options: object, next: () => unknown) => unknown
          // Routes seen before: assembled, and sent as model requests.
          for (const seen of before) {
            used.routeOf({ variables: seen }, undefined)
            stream(seen, () => undefined)
          }
          expect(used.routeOf({ variables: last }, undefined)).toBe(expected)
        },
      ),
      { numRuns: 200 },
    )
  })
})
