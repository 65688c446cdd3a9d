import type { Context } from '@deepseek-ai/cordis'
import {
  type ModelRoute,
  type ProfileId,
  profileForRoute,
  profileRules,
  renameAll,
  type ToolContract,
} from '@dsh-harden/tools'
import type { RoutedBinding } from './registration.ts'

// Which profile a route gets is data in @dsh-harden/tools (`projection/routes.ts`): every pi-ai provider key, DSH's
// `deepseek-official`, gateways by model id.
export { type ModelRoute, profileForRoute }

interface ToolSchema {
  readonly name?: unknown
  readonly parameters?: unknown
}

interface Assembly {
  readonly tools?: readonly ToolSchema[]
  readonly variables?: Readonly<Record<string, unknown>>
}

interface AssembleContext {
  readonly agent?: { readonly options?: ModelRoute } | undefined
  readonly scope?: unknown
}

/**
 * For one scope, the definition each name resolves to, as DSH resolves it for execution (`ToolRuntime.get(name,
 * scope)`): called once per assembly, so the scope's view is built once, not once per tool.
 */
export type ToolsInScope = (scope: unknown) => (name: string) => object | undefined

type Listen = (
  name: string,
  listener: (...args: never[]) => unknown,
  options?: { prepend?: boolean; global?: boolean },
) => () => void

function readRoute(source: unknown): ModelRoute | undefined {
  try {
    const { provider, model } = (source ?? {}) as Record<string, unknown>
    if (typeof provider !== 'string' && typeof model !== 'string') return undefined
    return {
      provider: typeof provider === 'string' ? provider : undefined,
      model: typeof model === 'string' ? model : undefined,
    }
  } catch {
    return undefined
  }
}

/**
 * Applies the wire projection for the route each request actually uses, with no `profile` configured. DSH assembles
 * a request's tools in `SystemPrompt.assemble()` (dsh-system-prompt), which runs the `system-prompt/assemble`
 * waterfall: this listener rewrites each known tool's `parameters` to its wire schema for the agent's route. The
 * route is read, in order, from the assembly's `variables` (DSH's model selection, `installModelSelection` in
 * dsh-agent, snapshots the selected provider/model there and applies the same pair to the request), the agent's
 * own options (`AgentOptions.provider`/`model`), and the last `llm/stream` request seen. A route switch takes effect
 * at the next assembly; arguments are read back for the route the calling agent was last assembled for.
 */
const NO_RENAMES: ReadonlyMap<string, string> = new Map()

export class RouteProjection implements RoutedBinding {
  private readonly contracts = new WeakMap<object, ToolContract>()
  private readonly byAgent = new WeakMap<object, ProfileId>()
  private last: ProfileId | undefined
  /** Wire tool name → registered name, per agent, for the names its route refuses (`toolNames` of the profile). */
  private readonly namesByAgent = new WeakMap<object, ReadonlyMap<string, string>>()
  private lastNames: ReadonlyMap<string, string> | undefined

  /**
   * The registered name of a tool the model called by its wire name, or `undefined` when the name was not renamed
   * for that agent's route. `scope` is what DSH resolves a call in (`exec.agent`).
   */
  readonly registeredName = (name: string, scope?: unknown): string | undefined => {
    const names =
      typeof scope === 'object' && scope !== null
        ? (this.namesByAgent.get(scope) ?? this.lastNames)
        : this.lastNames
    return names?.get(name)
  }

  readonly remember = (definition: object, contract: ToolContract): void => {
    this.contracts.set(definition, contract)
  }

  readonly argumentProfile = (exec?: unknown): ProfileId | undefined => {
    const agent = (exec as { agent?: unknown } | undefined)?.agent
    return (typeof agent === 'object' && agent !== null ? this.byAgent.get(agent) : undefined) ?? this.last
  }

  /** The profile the assembly for `context` should use, remembered for that agent's calls. */
  routeOf(assembly: Assembly, context: AssembleContext | undefined): ProfileId | undefined {
    const agent = context?.agent
    const route = readRoute(assembly.variables) ?? readRoute(agent?.options)
    const profile = (route && profileForRoute(route)) ?? this.last
    if (profile !== undefined && typeof agent === 'object' && agent !== null) this.byAgent.set(agent, profile)
    return profile
  }

  /**
   * The assembly with each tool's wire schema for `profile`. The prompt service hands over structured clones of the
   * schemas, so each tool is found again by name in the agent's scope, as DSH resolves it for execution.
   */
  project(
    assembly: Assembly,
    profile: ProfileId,
    scope: unknown,
    tools: ToolsInScope,
    agent?: unknown,
  ): Assembly {
    const schemas = assembly.tools
    if (!Array.isArray(schemas)) return assembly
    const lookup = tools(scope)
    let changed = false
    // A name the route refuses ("tools.28.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'") is
    // renamed on the wire; the table is collision-free over this request's names and maps the called name back.
    const names = schemas.flatMap((schema: ToolSchema) =>
      typeof schema.name === 'string' ? [schema.name] : [],
    )
    const renames = renameAll(names, profileRules(profile).toolNames)
    const fromWire = renames?.fromWire
    // An agent whose route renamed nothing gets an empty table, so it never reads another agent's.
    if (typeof agent === 'object' && agent !== null) this.namesByAgent.set(agent, fromWire ?? NO_RENAMES)
    this.lastNames = fromWire
    const projected = schemas.map((schema: ToolSchema) => {
      const wireName = typeof schema.name === 'string' ? renames?.toWire.get(schema.name) : undefined
      const definition = typeof schema.name === 'string' ? lookup(schema.name) : undefined
      const contract = definition === undefined ? undefined : this.contracts.get(definition)
      const wire = contract?.projection(profile).wire
      // Unchanged for this route: the schema DSH assembled is already an equal copy of it.
      const parameters = wire === undefined || wire === contract?.declared ? undefined : wire
      if (parameters === undefined && wireName === undefined) return schema
      changed = true
      return {
        ...schema,
        ...(wireName !== undefined && { name: wireName }),
        ...(parameters !== undefined && { parameters }),
      }
    })
    return changed ? { ...assembly, tools: projected } : assembly
  }

  /** Listens on DSH's request path; returns the disposer. */
  install(ctx: Context, tools: ToolsInScope): () => void {
    const on = (ctx as unknown as { on: Listen }).on.bind(ctx)
    const disposeAssemble = on(
      'system-prompt/assemble',
      (async (_assembly: Assembly, context: AssembleContext, next: () => Promise<Assembly>) => {
        const assembled = await next()
        const profile = this.routeOf(assembled, context)
        return profile === undefined
          ? assembled
          : this.project(assembled, profile, context?.scope, tools, context?.agent)
      }) as (...args: never[]) => unknown,
      // Outermost, so the assembly it sees already carries the model selection's variables; `global` admits the
      // assemblies of every agent scope (DSH dispatches them to `scopeTarget(systemPrompt, agent)`).
      { prepend: true, global: true },
    )
    const disposeStream = on(
      'llm/stream',
      ((options: ModelRoute, next: () => unknown) => {
        const route = readRoute(options)
        const profile = route && profileForRoute(route)
        if (profile !== undefined) this.last = profile
        return next()
      }) as (...args: never[]) => unknown,
      { global: true },
    )
    return () => {
      disposeAssemble()
      disposeStream()
    }
  }
}
