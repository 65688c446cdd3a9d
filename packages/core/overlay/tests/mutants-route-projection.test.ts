import type { JsonObject, Projection, ToolContract } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { RouteProjector, type ToolsInScope } from '../src/route/route-projection.ts'

/**
 * The rename table a call is read back with belongs to the agent that assembled the request (issue 23 item 7: the
 * per-agent fallback survived mutation). `gh.create_issue` is renamed on DeepSeek's route (function names are
 * `^[a-zA-Z0-9_-]{1,64}$`) and sent as it is on Gemini's (dots allowed), so two agents on those routes need two tables.
 */
const DECLARED = 'gh.create_issue'
const ASSEMBLY = { tools: [{ name: DECLARED, parameters: { type: 'object', properties: {} } }] }
// No contract for the tool: only its name is at stake here.
const NO_TOOLS: ToolsInScope = () => () => undefined

function wireNameOf(assembly: { tools?: readonly { name?: unknown }[] }): string {
  const name = assembly.tools?.[0]?.name
  if (typeof name !== 'string') throw new Error('the assembly lost its tool')
  return name
}

describe('a called name is read back with the table of the agent that assembled the request', () => {
  it('an agent on a renaming route keeps its table after another agent assembles on a route that renames nothing', () => {
    const routes = new RouteProjector()
    const renaming = {}
    const plain = {}
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, renaming))
    expect(wire).not.toBe(DECLARED)
    expect(wireNameOf(routes.project(ASSEMBLY, 'gemini', undefined, NO_TOOLS, plain))).toBe(DECLARED)

    expect(routes.registeredName(wire, renaming)).toBe(DECLARED)
    // The plain agent's route sent the declared name: a call of the wire text is a name it never offered.
    expect(routes.registeredName(wire, plain)).toBeUndefined()
  })

  it('an agent whose route renamed nothing never reads the table of the agent assembled last', () => {
    const routes = new RouteProjector()
    const renaming = {}
    const plain = {}
    routes.project(ASSEMBLY, 'gemini', undefined, NO_TOOLS, plain)
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, renaming))
    expect(routes.registeredName(wire, plain)).toBeUndefined()
    expect(routes.registeredName(wire, renaming)).toBe(DECLARED)
  })

  it('a call from a scope no assembly named (or none) falls back to the last assembly’s table', () => {
    const routes = new RouteProjector()
    const wire = wireNameOf(routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, {}))
    expect(routes.registeredName(wire, {})).toBe(DECLARED)
    expect(routes.registeredName(wire)).toBe(DECLARED)
    expect(routes.registeredName(DECLARED, {})).toBeUndefined()
  })
})

describe('the route an assembly uses is read from what it carries', () => {
  const routes = new RouteProjector()
  const routeOf = (variables: Readonly<Record<string, unknown>>) =>
    routes.routeOf({ variables }, { agent: {} })

  it('a provider key alone, a model id alone, or a gateway that forwards by model id', () => {
    expect(routeOf({ provider: 'anthropic' })).toBe('anthropic')
    expect(routeOf({ model: 'claude-sonnet-4' })).toBe('anthropic')
    expect(routeOf({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4' })).toBe('anthropic')
    expect(routeOf({ provider: 'openrouter', model: 'gemini-2.5-pro' })).toBe('gemini')
  })

  it('no variables: the agent’s own options; no context and no request seen: none', () => {
    const agent = { options: { provider: 'deepseek' } }
    expect(routes.routeOf({}, { agent })).toBe('deepseek')
    expect(new RouteProjector().routeOf({}, undefined)).toBeUndefined()
    expect(routes.argumentProfile({ agent })).toBe('deepseek')
  })
})

/** A contract whose projection is `projection`, counting how often a route asks for it. */
function countedContract(declared: JsonObject, projection: (profile: string) => Projection) {
  const counted = {
    calls: 0,
    declared,
    projection: (profile: string): Projection => {
      counted.calls++
      return projection(profile)
    },
  }
  return counted
}

const DECLARED_SCHEMA: JsonObject = { type: 'object', properties: { n: { type: 'integer' } } }
const WIRE_SCHEMA: JsonObject = {
  type: 'object',
  properties: { n: { type: 'integer', description: 'wire' } },
}
const PROJECTED = (): Projection => ({ wire: WIRE_SCHEMA, decoder: { kind: 'identity' }, changes: [] })

describe('what a route changes in an assembly, and only that', () => {
  const declaredName = (name: string) => ({ name, parameters: DECLARED_SCHEMA })

  it('an assembly with nothing to change is handed back as the very same object', () => {
    const routes = new RouteProjector()
    const assembly = { tools: [declaredName('read')] }
    expect(routes.project(assembly, 'deepseek', undefined, NO_TOOLS, {})).toBe(assembly)
    const noTools = { variables: {} }
    expect(routes.project(noTools, 'deepseek', undefined, NO_TOOLS, {})).toBe(noTools)
  })

  it('a renamed tool keeps its parameters; the others, and a nameless entry, stay the very same objects', () => {
    const routes = new RouteProjector()
    const kept = declaredName('read')
    const nameless = { parameters: DECLARED_SCHEMA }
    const assembly = { tools: [declaredName(DECLARED), kept, nameless] }
    const projected = routes.project(assembly, 'deepseek', undefined, NO_TOOLS)
    expect(projected.tools?.[0]).toEqual({ name: wireNameOf(projected), parameters: DECLARED_SCHEMA })
    expect(projected.tools?.[1]).toBe(kept)
    expect(projected.tools?.[2]).toBe(nameless)
    // No agent: the table is still the one calls fall back to.
    expect(routes.registeredName(wireNameOf(projected))).toBe(DECLARED)
  })

  it('a scope that resolves names one at a time: each tool gets its wire schema', () => {
    const routes = new RouteProjector()
    const definition = {}
    routes.remember(definition, countedContract(DECLARED_SCHEMA, PROJECTED) as unknown as ToolContract)
    const lookup: ToolsInScope = () => (name) => (name === 'read' ? definition : undefined)
    const projected = routes.project(
      { tools: [declaredName('read'), declaredName('other')] },
      'deepseek',
      {},
      lookup,
    )
    expect(projected.tools).toEqual([{ name: 'read', parameters: WIRE_SCHEMA }, declaredName('other')])
  })

  it('a tool whose wire is its declared schema is left as DSH assembled it', () => {
    const routes = new RouteProjector()
    const definition = {}
    const asDeclared = (): Projection => ({
      wire: DECLARED_SCHEMA,
      decoder: { kind: 'identity' },
      changes: [],
    })
    routes.remember(definition, countedContract(DECLARED_SCHEMA, asDeclared) as unknown as ToolContract)
    const assembly = { tools: [declaredName('read')] }
    expect(routes.project(assembly, 'deepseek', {}, () => new Map([['read', definition]]))).toBe(assembly)
  })

  it('a view map is projected once per route, however many assemblies read it', () => {
    const routes = new RouteProjector()
    const definition = {}
    const contract = countedContract(DECLARED_SCHEMA, PROJECTED)
    routes.remember(definition, contract as unknown as ToolContract)
    const view = new Map([['read', definition]])
    const assembly = { tools: [declaredName('read')] }
    for (let turn = 0; turn < 3; turn++) {
      const projected = routes.project(assembly, 'deepseek', {}, () => view)
      expect(projected.tools).toEqual([{ name: 'read', parameters: WIRE_SCHEMA }])
    }
    expect(contract.calls).toBe(1)
    routes.project(assembly, 'anthropic', {}, () => view)
    expect(contract.calls).toBe(2)
  })

  it('a tool sent as declared for a reason of the moment is told each time and projected again next time', () => {
    const told: string[] = []
    const routes = new RouteProjector((reason) => told.push(reason))
    const silent = new RouteProjector()
    const definition = {}
    const contract = countedContract(DECLARED_SCHEMA, () => ({ ...PROJECTED(), notProjected: 'the moment' }))
    routes.remember(definition, contract as unknown as ToolContract)
    silent.remember(definition, contract as unknown as ToolContract)
    const view = new Map([['read', definition]])
    const assembly = { tools: [declaredName('read')] }
    routes.project(assembly, 'deepseek', {}, () => view)
    routes.project(assembly, 'deepseek', {}, () => view)
    expect(told).toEqual(['the moment', 'the moment'])
    expect(contract.calls).toBe(2)
    expect(() => silent.project(assembly, 'deepseek', {}, () => view)).not.toThrow()
  })
})

describe('on DSH’s request path', () => {
  /** A context that keeps each listener by event name until its disposer runs. */
  function fakeContext() {
    const listeners = new Map<string, (...args: never[]) => unknown>()
    const ctx = {
      on: (name: string, listener: (...args: never[]) => unknown) => {
        listeners.set(name, listener)
        return () => listeners.delete(name)
      },
    }
    return { ctx: ctx as unknown as Parameters<RouteProjector['install']>[0], listeners }
  }

  it('the last model request names the route calls are read back for, until the overlay stops', async () => {
    const routes = new RouteProjector()
    const { ctx, listeners } = fakeContext()
    const dispose = routes.install(ctx, NO_TOOLS)
    const stream = listeners.get('llm/stream') as unknown as (options: object, next: () => unknown) => unknown
    expect(stream({ provider: 'anthropic' }, () => 'sent')).toBe('sent')
    expect(routes.argumentProfile()).toBe('anthropic')
    const assemble = listeners.get('system-prompt/assemble') as unknown as (
      assembly: object,
      context: object,
      next: () => Promise<object>,
    ) => Promise<{ tools?: { name?: unknown }[] }>
    const assembled = await assemble({}, {}, async () => ASSEMBLY)
    // Assembled on the route of that request, which renames the dotted name.
    expect(routes.registeredName(wireNameOf(assembled))).toBe(DECLARED)
    dispose()
    expect([...listeners.keys()]).toEqual([])
  })
})

describe('what DSH hands over may be partial or hostile', () => {
  it('a null agent is no agent: the assembly is projected and the route still read', () => {
    const routes = new RouteProjector()
    expect(routes.routeOf({ variables: { provider: 'deepseek' } }, { agent: null as never })).toBe('deepseek')
    const projected = routes.project(ASSEMBLY, 'deepseek', undefined, NO_TOOLS, null)
    expect(routes.registeredName(wireNameOf(projected), null)).toBe(DECLARED)
  })

  it('variables whose read throws name no route', () => {
    const routes = new RouteProjector()
    const variables = Object.defineProperty({}, 'provider', {
      get: () => {
        throw new Error('hostile getter')
      },
    })
    expect(routes.routeOf({ variables }, { agent: { options: { provider: 'anthropic' } } })).toBe('anthropic')
  })

  it('wires of the view’s other tools leave an assembly that carries none of them as it is', () => {
    const routes = new RouteProjector()
    const definition = {}
    routes.remember(definition, countedContract(DECLARED_SCHEMA, PROJECTED) as unknown as ToolContract)
    const assembly = { tools: [{ name: 'other', parameters: DECLARED_SCHEMA }] }
    expect(routes.project(assembly, 'deepseek', {}, () => new Map([['read', definition]]))).toBe(assembly)
  })
})
