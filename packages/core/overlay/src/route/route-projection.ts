import type { Context } from '@deepseek-ai/cordis'
import {
  type JsonObject,
  type ModelRoute,
  type Placement,
  type ProfileId,
  placeRoute,
  profileForRoute,
  profileRules,
  type RouteFacts,
  renameAll,
  type ToolContract,
} from '@dsh-harden/tools'
import type { RoutedBinding } from '../gate/tool-gate.ts'

// Which profile a route gets is data in @dsh-harden/tools (`projection/routes.ts`): every pi-ai provider key, DSH's
// `deepseek-official`, gateways by model id, local engines by endpoint, `conservative` for a route nothing places.
export { type ModelRoute, placeRoute, profileForRoute }

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
 * scope)`): called once per assembly, so the scope's view is built once, not once per tool. A `Map` is the scope's
 * view itself, which DSH builds anew on every change (and the read guard keeps until one): the same map means the same
 * definitions, so what the route does to them is worked out once per map and profile, not at every assembly.
 */
export type ToolsInScope = (
  scope: unknown,
) => ReadonlyMap<string, object> | ((name: string) => object | undefined)

/** What a route does to the tools of one view, by tool name. */
interface ViewWires {
  readonly profile: ProfileId
  /** The wire schemas it sends instead of the declared ones. */
  readonly wires: ReadonlyMap<string, JsonObject>
  /** The tools it does not offer, and why (`Projection.withheld`: inlining would pass the wire's byte budget). */
  readonly withheld: ReadonlyMap<string, string>
}

const NOTHING_WITHHELD: ReadonlyMap<string, string> = new Map()

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

/** The endpoint facts of a route key, as its adapter's configuration states them. */
export type RouteConfig = (provider: string) => Pick<RouteFacts, 'api' | 'baseURL'> | undefined

const NO_ROUTE_CONFIG: RouteConfig = () => undefined

const PI_AI_SETTINGS = 'llm-pi-ai'

/**
 * The `api` and `baseURL` of a pi-ai route, where DSH exposes them. `GenerateOptions` (dsh-llm `src/types.ts`) carries
 * only `provider` and `model`, and `dsh-llm-pi-ai` keeps its resolved profiles inside its plugin; but its `apply`
 * (`src/index.ts`) registers its configuration as the settings namespace `llm-pi-ai` (`installSettingsSection`, with
 * the profile row's config as the base layer), and the settings service's `get(ns)` (dsh-settings `src/index.ts`,
 * `SettingsProvider.get`) returns the resolved section: `providers[<route key>]` is a `PiAiProviderProfile`
 * (`src/config.ts`), whose `api` and `baseURL` say what serves a hand-declared route. Without a settings service
 * there is nothing to read, and the route is placed by its key and model id.
 */
export function piAiRouteConfig(ctx: Context): RouteConfig {
  return (provider) => {
    try {
      const settings = (ctx as unknown as { get?(name: string): unknown }).get?.('settings') as
        | { get?(ns: string): unknown }
        | undefined
      const section = settings?.get?.(PI_AI_SETTINGS) as { providers?: Record<string, unknown> } | undefined
      const profile = section?.providers?.[provider] as Record<string, unknown> | undefined
      if (profile === undefined || profile === null) return undefined
      const { api, baseURL } = profile
      return {
        api: typeof api === 'string' ? api : undefined,
        baseURL: typeof baseURL === 'string' ? baseURL : undefined,
      }
    } catch {
      return undefined
    }
  }
}

/**
 * Applies the wire projection for the route each request actually uses, with no `profile` configured. DSH assembles
 * a request's tools in `SystemPrompt.assemble()` (dsh-system-prompt), which runs the `system-prompt/assemble`
 * waterfall: this listener rewrites each known tool's `parameters` to its wire schema for the agent's route. The
 * route is read, in order, from the assembly's `variables` (DSH's model selection, `installModelSelection` in
 * dsh-agent, snapshots the selected provider/model there and applies the same pair to the request), the agent's
 * own options (`AgentOptions.provider`/`model`); the route's `api` and `baseURL` from its adapter's configuration
 * (`piAiRouteConfig`). `placeRoute` places every route it is given, a route no rule knows on `conservative`, and the
 * overlay says once per route which profile it got and why. Only an assembly that names no route at all uses the
 * route of the last `llm/stream` request. A route switch takes effect at the next assembly; arguments are read back
 * for the route the calling agent was last assembled for.
 */
const NO_RENAMES: ReadonlyMap<string, string> = new Map()

export class RouteProjector implements RoutedBinding {
  /** Told why a tool's schema goes out as declared for a route (`Projection.notProjected`). */
  private readonly onNotProjected: ((reason: string) => void) | undefined
  /** The profile a DSH profile row configured: every assembly and call uses it, through the same steps as a found one. */
  private readonly configured: ProfileId | undefined
  /** Told once per tool and route that the route does not get the tool, and why. */
  private readonly onWithheld: ((tool: string, profile: ProfileId, reason: string) => void) | undefined
  private readonly toldWithheld = new Set<string>()
  private readonly contracts = new WeakMap<object, ToolContract>()
  private readonly byAgent = new WeakMap<object, ProfileId>()
  private last: ProfileId | undefined
  /** Wire tool name → registered name, per agent, for the names its route refuses (`toolNames` of the profile). */
  private readonly namesByAgent = new WeakMap<object, ReadonlyMap<string, string>>()
  private lastNames: ReadonlyMap<string, string> | undefined
  /** Per view map, so agents of different scopes taking turns each keep theirs. */
  private readonly wiresByView = new WeakMap<ReadonlyMap<string, object>, ViewWires>()
  /**
   * Told once per route that a rule other than its provider key placed (a base URL, a model id, `conservative`):
   * which profile it got and why, a line for the user. A provider key's own row is only logged (DSH's logger).
   */
  private readonly onPlaced: ((line: string) => void) | undefined
  private logPlaced: ((line: string) => void) | undefined
  /** The profile of each route seen, by its facts: placed and told once, since the facts decide it. */
  private readonly placed = new Map<string, ProfileId>()
  private routeConfig: RouteConfig = NO_ROUTE_CONFIG

  constructor(
    onNotProjected?: (reason: string) => void,
    configured?: ProfileId,
    onWithheld?: (tool: string, profile: ProfileId, reason: string) => void,
    onPlaced?: (line: string) => void,
  ) {
    this.onNotProjected = onNotProjected
    this.configured = configured
    this.onWithheld = onWithheld
    this.onPlaced = onPlaced
  }

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

  /** The contract compiled for a definition handed to DSH, or `undefined` for one the overlay never accepted. */
  readonly contractOf = (definition: object): ToolContract | undefined => this.contracts.get(definition)

  readonly argumentProfile = (exec?: unknown): ProfileId | undefined => {
    if (this.configured !== undefined) return this.configured
    const agent = (exec as { agent?: unknown } | undefined)?.agent
    return (typeof agent === 'object' && agent !== null ? this.byAgent.get(agent) : undefined) ?? this.last
  }

  /** The profile the assembly for `context` should use, remembered for that agent's calls. */
  routeOf(assembly: Assembly, context: AssembleContext | undefined): ProfileId | undefined {
    const agent = context?.agent
    const route =
      this.configured === undefined ? (readRoute(assembly.variables) ?? readRoute(agent?.options)) : undefined
    const profile = this.configured ?? (route === undefined ? this.last : this.place(route))
    if (profile !== undefined && typeof agent === 'object' && agent !== null) this.byAgent.set(agent, profile)
    return profile
  }

  /** The profile of a named route, with its endpoint facts; says once per route which one and why. */
  private place(route: ModelRoute): ProfileId {
    const config = route.provider === undefined ? undefined : this.routeConfig(route.provider)
    const facts: RouteFacts = { ...route, ...config }
    const key = [facts.provider, facts.model, facts.api, facts.baseURL].join('\u0000')
    const known = this.placed.get(key)
    if (known !== undefined) return known
    const placement = placeRoute(facts)
    this.placed.set(key, placement.profile)
    const byKey =
      facts.provider !== undefined && profileForRoute({ provider: facts.provider }) === placement.profile
    const tell = byKey ? this.logPlaced : (this.onPlaced ?? this.logPlaced)
    tell?.(placedNotice(facts, placement))
    return placement.profile
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
    const all = assembly.tools
    if (!Array.isArray(all)) return assembly
    const { wires, withheld } = this.wiresOf(tools(scope), profile, all)
    // A tool the route cannot be sent within the byte budget is left out of this request, as if not registered.
    const schemas =
      withheld.size === 0 ? all : all.filter((schema) => !this.withholds(withheld, schema, profile))
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
    // The common case: every tool goes as DSH assembled it.
    if (wires.size === 0 && renames === undefined && schemas === all) return assembly
    let changed = false
    const projected = schemas.map((schema: ToolSchema) => {
      const name = typeof schema.name === 'string' ? schema.name : undefined
      const wireName = name === undefined ? undefined : renames?.toWire.get(name)
      const parameters = name === undefined ? undefined : wires.get(name)
      if (parameters === undefined && wireName === undefined) return schema
      changed = true
      return {
        ...schema,
        ...(wireName !== undefined && { name: wireName }),
        ...(parameters !== undefined && { parameters }),
      }
    })
    return changed || schemas !== all ? { ...assembly, tools: projected } : assembly
  }

  /** Whether the route leaves `schema`'s tool out; says so once per tool and route. */
  private withholds(withheld: ReadonlyMap<string, string>, schema: ToolSchema, profile: ProfileId): boolean {
    const name = typeof schema.name === 'string' ? schema.name : undefined
    const reason = name === undefined ? undefined : withheld.get(name)
    if (reason === undefined || name === undefined) return false
    const key = `${profile}\u0000${name}`
    if (!this.toldWithheld.has(key)) {
      this.toldWithheld.add(key)
      this.onWithheld?.(name, profile, reason)
    }
    return true
  }

  /**
   * The wire schema of each tool whose route changes it: every tool of the view when the scope offers its view map
   * (kept per map, see `ToolsInScope`), otherwise this assembly's tools. The schema DSH assembled is an equal copy of
   * the declared one, so a tool the route leaves unchanged needs nothing.
   */
  private wiresOf(
    lookup: ReturnType<ToolsInScope>,
    profile: ProfileId,
    schemas: readonly ToolSchema[],
  ): ViewWires {
    const kept = lookup instanceof Map ? this.wiresByView.get(lookup) : undefined
    if (kept?.profile === profile) return kept
    const wires = new Map<string, JsonObject>()
    let withheld: Map<string, string> | undefined
    let lasting = true
    const consider = (name: string, definition: object | undefined): void => {
      const contract = definition === undefined ? undefined : this.contracts.get(definition)
      const projection = contract?.projection(profile)
      if (projection?.notProjected !== undefined) {
        lasting = false
        this.onNotProjected?.(projection.notProjected)
      }
      if (projection?.withheld !== undefined) {
        withheld ??= new Map()
        withheld.set(name, projection.withheld)
        return
      }
      const wire = projection?.wire
      if (wire !== undefined && wire !== contract?.declared) wires.set(name, wire)
    }
    if (lookup instanceof Map) {
      // Every tool of the view, not only this assembly's: another assembly from the same view may carry others.
      for (const [name, definition] of lookup) consider(name, definition)
    } else {
      const find = lookup as (name: string) => object | undefined
      for (const schema of schemas)
        if (typeof schema.name === 'string') consider(schema.name, find(schema.name))
    }
    const result: ViewWires = { profile, wires, withheld: withheld ?? NOTHING_WITHHELD }
    // Wires sent as declared for a reason of the moment are not kept: the next assembly projects again.
    if (lookup instanceof Map && lasting) this.wiresByView.set(lookup, result)
    return result
  }

  /** Listens on DSH's request path; returns the disposer. */
  install(ctx: Context, tools: ToolsInScope): () => void {
    this.routeConfig = piAiRouteConfig(ctx)
    this.logPlaced = loggerOf(ctx)
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
        if (route !== undefined && this.configured === undefined) this.last = this.place(route)
        return next()
      }) as (...args: never[]) => unknown,
      { global: true },
    )
    return () => {
      disposeAssemble()
      disposeStream()
      this.routeConfig = NO_ROUTE_CONFIG
    }
  }
}

/** DSH's logger of `ctx` (`ctx.logger.info`), where a host without a notice sink still records placements. */
function loggerOf(ctx: Context): ((line: string) => void) | undefined {
  try {
    const logger = (ctx as unknown as { logger?: { info?: (line: string) => void } }).logger
    const info = logger?.info
    return typeof info === 'function' ? (line) => info.call(logger, line) : undefined
  } catch {
    return undefined
  }
}

/** What the user reads once per route: which profile it got, why, and how to choose another. */
export function placedNotice(facts: RouteFacts, placement: Placement): string {
  const named = [facts.provider, facts.model].filter((part) => part !== undefined).join('/')
  const endpoint = facts.baseURL === undefined ? '' : ` at ${facts.baseURL}`
  return (
    `dsh-harden: route ${JSON.stringify(named)}${endpoint} gets the ${placement.profile} profile (${placement.why}); ` +
    'to choose another, set `route: <profile>` in the dsh-harden row (PROFILES.md lists them).'
  )
}
