import type { Context } from '@deepseek-ai/cordis'
import { createToolContract, PROFILE_IDS, PROVIDER_KEYS, type ProfileId } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { HardenOverlay, type OverlayConfig } from '../src/index.ts'
import {
  ANY_SLOT,
  BARE_TABLE,
  captureStderr,
  dshRuntime,
  NULLABLE_NOTE,
  tool,
  toolPlugin,
  VALID,
} from './fixtures.ts'

/**
 * Issue 23, items 2 and 3, in the real DSH registry (`@deepseek-ai/dsh-tools` `ToolRuntime`, `dsh-system-prompt`):
 * the overlay hands DSH the very definition a plugin registered (DSH compares definitions by identity: tool-skill's
 * `<available_skills>` reminder, tool-fs-search's spill), and every call reaches DSH's policy pipeline with the
 * declared name and the arguments read back, whatever the route did on the wire.
 */
interface Agent {
  options: { provider?: string; model?: string }
}

interface Execution {
  readonly name: string
  readonly arguments: unknown
  readonly agent?: unknown
}

interface Runtime {
  systemPrompt: {
    assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }>
  }
  tools: {
    execute(input: object): Promise<{ content?: unknown; isError?: boolean; error?: unknown }>
    executionMode(input: object): { kind: string }
    get(name: string, scope?: unknown): unknown
  }
}

type Listen = (name: string, listener: (...args: never[]) => unknown, options?: object) => () => void

const FILTERED = {
  type: 'object',
  properties: { 'filter[name]': { type: 'string' }, limit: { type: 'integer' } },
  required: ['filter[name]'],
}

const CLAUDE: Agent = { options: { provider: 'anthropic', model: 'claude-sonnet-4-5' } }

const CONFIGS: readonly (OverlayConfig | undefined)[] = [
  undefined,
  { route: 'anthropic' },
  { mode: 'repair' },
  { route: 'openai-strict', validateArguments: true },
]

function execute(app: Context & Runtime, name: string, args: unknown, agent?: Agent) {
  return app.tools.execute({
    signal: new AbortController().signal,
    callId: 'c1',
    name,
    arguments: args,
    ...(agent !== undefined && { agent }),
  })
}

/** Every `tools/pre-execute` call DSH's policy pipeline sees (hooks, approvals and guards listen there). */
function recordPreExecute(app: Context): Execution[] {
  const seen: Execution[] = []
  ;(app as unknown as { on: Listen }).on(
    'tools/pre-execute',
    ((exec: Execution, next: () => unknown) => {
      seen.push({ name: exec.name, arguments: exec.arguments })
      return next()
    }) as (...args: never[]) => unknown,
    { global: true },
  )
  return seen
}

async function renamingSession(config?: OverlayConfig) {
  const app = (await dshRuntime()) as Context & Runtime
  await app.plugin(HardenOverlay, config)
  const received: unknown[] = []
  const search = tool('issues.search', FILTERED)
  search.execute = async (args: unknown) => {
    received.push(args)
    return 'ok'
  }
  await app.plugin(toolPlugin('third-party', search))
  return { app, received, search }
}

describe('the registered definition is what DSH holds', () => {
  for (const config of CONFIGS)
    for (const order of ['overlay first', 'overlay last'] as const)
      it(`get() returns the very object the plugin registered (${JSON.stringify(config ?? {})}, ${order})`, async () => {
        const app = (await dshRuntime()) as Context & Runtime
        if (order === 'overlay first') await app.plugin(HardenOverlay, config)
        const echo = tool('echo', VALID)
        const slot = tool('any_json', ANY_SLOT)
        await app.plugin(toolPlugin('third-party', echo, slot))
        if (order === 'overlay last') await app.plugin(HardenOverlay, config)
        expect(app.tools.get('echo')).toBe(echo)
        expect(app.tools.get('any_json')).toBe(slot)
      })

  it('a tool `mode: repair` changed is the one copy DSH holds, carrying the repaired schema', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { mode: 'repair' })
    const bare = tool('bare', BARE_TABLE)
    await app.plugin(toolPlugin('third-party', bare))
    const held = app.tools.get('bare') as { parameters: unknown } | undefined
    expect(held).not.toBe(bare)
    expect(held?.parameters).toEqual({ type: 'object', properties: BARE_TABLE })
  })
})

describe('calls reach DSH in the declared terms', () => {
  for (const config of [undefined, { route: 'anthropic' }] as const)
    it(`a renamed tool's call is seen by pre-execute, the body and fs-search's identity check under its declared name (${config === undefined ? 'route found' : 'profile configured'})`, async () => {
      const { app, received, search } = await renamingSession(config)
      const seen = recordPreExecute(app)
      // tool-fs-search's `acceptedDirectCallValue` spills only when the call's name is the tool's and the registry
      // still resolves that name to the very definition it registered.
      const owned: boolean[] = []
      ;(app as unknown as { on: Listen }).on(
        'tools/post-execute',
        ((exec: Execution, _result: unknown, next: () => unknown) => {
          owned.push(exec.name === search.name && app.tools.get(exec.name, exec.agent) === search)
          return next()
        }) as (...args: never[]) => unknown,
        { global: true },
      )
      const wire = (await app.systemPrompt.assemble({ agent: CLAUDE, scope: CLAUDE })).tools
      expect(wire.map((schema) => schema.name)).toEqual(['issues_search'])
      const result = await execute(app, 'issues_search', { filter_name_: 'bug', limit: 3 }, CLAUDE)
      expect(result.isError).not.toBe(true)
      const declared = { 'filter[name]': 'bug', limit: 3 }
      expect(seen).toEqual([{ name: 'issues.search', arguments: declared }])
      expect(received).toEqual([declared])
      expect(owned).toEqual([true])
    })

  it('a call the route did not change reaches DSH as the very input it was', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay)
    await app.plugin(toolPlugin('third-party', tool('echo', VALID)))
    let seen: unknown
    ;(app as unknown as { on: Listen }).on(
      'tools/pre-execute',
      ((exec: Execution, next: () => unknown) => {
        seen = exec.arguments
        return next()
      }) as (...args: never[]) => unknown,
      { global: true },
    )
    const args = { text: 'a' }
    await app.systemPrompt.assemble({ agent: CLAUDE, scope: CLAUDE })
    await execute(app, 'echo', args, CLAUDE)
    // DSH detaches the input itself; the overlay made no copy of its own, so the value is stock's.
    expect(seen).toEqual(args)
  })

  it('executionMode classifies the call as declared (isConcurrencySafe sees the read-back arguments)', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { route: 'openai-strict' })
    const seen: unknown[] = []
    const note = tool('maybe.note', { type: 'object', properties: { note: { type: 'string' } } })
    note.isConcurrencySafe = (args: unknown) => {
      seen.push(args)
      return true
    }
    await app.plugin(toolPlugin('third-party', note))
    const wire = (await app.systemPrompt.assemble({})).tools[0]
    // openai-strict sends the optional `note` as required and nullable, so a model leaves it out by sending null.
    expect(wire?.parameters).toMatchObject({ required: ['note'] })
    const mode = app.tools.executionMode({
      signal: new AbortController().signal,
      callId: 'c1',
      name: wire?.name ?? '',
      arguments: { note: null },
    })
    expect(mode.kind).toBe('parallel')
    expect(seen).toEqual([{}])
  })

  it('reads a call back once when the agent loop classifies it and then runs it (the same input object)', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { route: 'openai-strict' })
    await app.plugin(
      toolPlugin(
        'third-party',
        tool('maybe.note', { type: 'object', properties: { note: { type: 'string' } } }),
      ),
    )
    const wire = (await app.systemPrompt.assemble({})).tools[0]
    const prototype = Object.getPrototypeOf(createToolContract(VALID, { tool: 'probe', source: undefined }))
    const reads = vi.spyOn(prototype, 'normalizeArguments')
    try {
      const input = {
        signal: new AbortController().signal,
        callId: 'c1',
        name: wire?.name ?? '',
        arguments: { note: null },
      }
      app.tools.executionMode(input)
      await app.tools.execute(input)
      expect(reads).toHaveBeenCalledTimes(1)
    } finally {
      reads.mockRestore()
    }
  })

  it('validateArguments refuses a call as a failing tool body does, with ToolArgsError naming tool and pointer', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { route: 'deepseek', validateArguments: true })
    let ran = false
    const echo = tool('echo', VALID)
    echo.execute = async () => {
      ran = true
      return 'ok'
    }
    await app.plugin(toolPlugin('third-party', echo))
    const posted: boolean[] = []
    ;(app as unknown as { on: Listen }).on(
      'tools/post-execute',
      ((_exec: Execution, result: { isError?: boolean }, next: () => unknown) => {
        posted.push(result.isError === true)
        return next()
      }) as (...args: never[]) => unknown,
      { global: true },
    )
    const result = await execute(app, 'echo', { text: 5 })
    expect(ran).toBe(false)
    expect(result.isError).toBe(true)
    expect(result.error).toMatchObject({
      message: expect.stringMatching(/invalid arguments for tool "echo".*\/text/),
      info: { name: 'ToolArgsError', code: 'INVALID_ARGS' },
    })
    // post-execute sees the refusal, as it sees any failing body.
    expect(posted).toEqual([true])
  })
})

describe('a call the overlay cannot read back is refused where the body would run', () => {
  it('gemini: a renamed key beside its declared key gets ToolArgsError naming both, and the body never runs', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { route: 'gemini' })
    let ran = false
    const filter = tool('filter', { type: 'object', properties: { 'a-b': { type: 'string' } } })
    filter.execute = async () => {
      ran = true
      return 'ok'
    }
    await app.plugin(toolPlugin('third-party', filter))
    await app.systemPrompt.assemble({})
    const result = await execute(app, 'filter', { a_b: 'x', 'a-b': 'y' })
    expect(ran).toBe(false)
    expect(result.error).toMatchObject({
      message: expect.stringMatching(/"a_b".*"a-b".*send one of them/),
      info: { name: 'ToolArgsError', code: 'INVALID_ARGS' },
    })
    // The next call, with one of the two, runs.
    expect((await execute(app, 'filter', { a_b: 'x' })).isError).not.toBe(true)
    expect(ran).toBe(true)
  })
})

/** A provider key each profile is placed on by route detection (`dsh-subset` has none: it is only configured). */
function routeFor(profile: ProfileId): Agent | undefined {
  for (const [provider, placement] of PROVIDER_KEYS)
    if (placement.profile === profile && placement.byModel !== true)
      return { options: { provider, model: 'any-model' } }
  return undefined
}

const NAMES = fc.constantFrom('issues.search', 'gh.create_issue', 'a/b', 'plain_tool', 'x'.repeat(70), 'k-1')
const SCHEMAS = fc.constantFrom(FILTERED, ANY_SLOT, NULLABLE_NOTE, VALID)

describe('one wire path: a configured profile and a found route send and read alike', () => {
  for (const profile of PROFILE_IDS) {
    const route = routeFor(profile)
    if (route === undefined) continue
    it(`${profile} (found on provider ${route.options.provider})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.tuple(NAMES, SCHEMAS), {
            minLength: 1,
            maxLength: 3,
            selector: ([name]) => name,
          }),
          async (tools) => {
            const sessions = await Promise.all(
              [undefined, { route: profile }].map(async (config) => {
                const app = (await dshRuntime()) as Context & Runtime
                await app.plugin(HardenOverlay, config)
                await app.plugin(
                  toolPlugin('third-party', ...tools.map(([name, schema]) => tool(name, schema))),
                )
                return app
              }),
            )
            const [found, configured] = await Promise.all(
              sessions.map(
                async (app) => (await app.systemPrompt.assemble({ agent: route, scope: route })).tools,
              ),
            )
            expect(configured).toEqual(found)
            for (const app of sessions) {
              const seen = recordPreExecute(app)
              for (const schema of found ?? []) await execute(app, schema.name, {}, route)
              expect(seen.map((exec) => exec.name).sort()).toEqual(tools.map(([name]) => name).sort())
            }
          },
        ),
        { numRuns: 15 },
      )
    })
  }
})

describe('the profile row reads its config as documented', () => {
  it('refuses `mode: collect`, which needs an `onVerdict` a profile row cannot give, naming the modes it takes', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    const errors: unknown[] = []
    try {
      await app.plugin(HardenOverlay, { mode: 'collect' } as unknown as OverlayConfig)
    } catch (error) {
      errors.push(error)
    }
    expect(String(errors[0])).toMatch(
      /dsh-harden overlay config: mode "collect" is not one of refuse, repair, throw; fix the dsh-harden row/,
    )
  })
})

describe('a tool a route cannot be sent within the byte budget', () => {
  /** Each definition uses the next twice: fine where `$ref` goes on the wire, 2^24 copies where it must be inlined. */
  function doubling(levels: number): Record<string, unknown> {
    const $defs: Record<string, unknown> = { d0: { type: 'string' } }
    for (let i = 1; i <= levels; i++)
      $defs[`d${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } },
      }
    return { type: 'object', properties: { root: { $ref: `#/$defs/d${levels}` } }, $defs }
  }

  it('is left out of that route’s requests, with one notice naming it and the route; the other tools go as usual', async () => {
    const stderr = captureStderr()
    try {
      const app = (await dshRuntime()) as Context & Runtime
      await app.plugin(HardenOverlay, { route: 'dsh-subset' })
      await app.plugin(toolPlugin('third-party', tool('nested', doubling(24)), tool('echo', VALID)))
      for (let i = 0; i < 2; i++)
        expect((await app.systemPrompt.assemble({})).tools.map((schema) => schema.name)).toEqual(['echo'])
    } finally {
      stderr.restore()
    }
    const told = stderr
      .text()
      .split('\n')
      .filter((line) => line.includes('"nested" is not offered'))
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(/on the dsh-subset route .*withheld on the dsh-subset route/)
  })

  it('goes out as declared on a route that takes $ref', async () => {
    const app = (await dshRuntime()) as Context & Runtime
    await app.plugin(HardenOverlay, { route: 'deepseek' })
    const declared = doubling(24)
    await app.plugin(toolPlugin('third-party', tool('nested', declared)))
    expect((await app.systemPrompt.assemble({})).tools[0]?.parameters).toEqual(declared)
  })
})
