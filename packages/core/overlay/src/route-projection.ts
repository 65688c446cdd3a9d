import type { Context } from '@deepseek-ai/cordis'
import type { ProfileId, ToolContract } from '@dsh-harden/tools'
import type { RoutedBinding } from './registration.ts'

/** A model route as DSH names it: `GenerateOptions.provider` (the adapter's route key) and the model id. */
export interface ModelRoute {
  readonly provider?: string | undefined
  readonly model?: string | undefined
}

// Provider route keys first (`deepseek-official` from dsh-llm-deepseek; pi-ai routes are keyed by pi-ai's provider
// ids, e.g. `openai`, `anthropic`, `google`, `openai-codex`), then the model id for gateways with their own key.
const PROVIDER_RULES: readonly [RegExp, ProfileId][] = [
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/anthropic|claude/i, 'anthropic'],
  [/google|gemini|vertex/i, 'gemini'],
  [/openai|azure/i, 'openai'],
]
const MODEL_RULES: readonly [RegExp, ProfileId][] = [
  [/deepseek/i, 'deepseek'],
  [/codex/i, 'codex'],
  [/claude/i, 'anthropic'],
  [/gemini/i, 'gemini'],
  [/^(?:openai\/)?(?:gpt-|o\d)/i, 'openai'],
]

/** The projection profile for a route, or `undefined` when the route names no provider family we know. */
export function profileForRoute(route: ModelRoute): ProfileId | undefined {
  const { provider, model } = route
  if (typeof provider === 'string')
    for (const [pattern, profile] of PROVIDER_RULES) if (pattern.test(provider)) return profile
  if (typeof model === 'string')
    for (const [pattern, profile] of MODEL_RULES) if (pattern.test(model)) return profile
  return undefined
}

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
export class RouteProjection implements RoutedBinding {
  private readonly contracts = new WeakMap<object, ToolContract>()
  private readonly byAgent = new WeakMap<object, ProfileId>()
  private last: ProfileId | undefined

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
  project(assembly: Assembly, profile: ProfileId, scope: unknown, tools: ToolsInScope): Assembly {
    const schemas = assembly.tools
    if (!Array.isArray(schemas)) return assembly
    const lookup = tools(scope)
    let changed = false
    const projected = schemas.map((schema: ToolSchema) => {
      const definition = typeof schema.name === 'string' ? lookup(schema.name) : undefined
      const contract = definition === undefined ? undefined : this.contracts.get(definition)
      if (contract === undefined) return schema
      const { wire } = contract.projection(profile)
      // Unchanged for this route: the schema DSH assembled is already an equal copy of it.
      if (wire === contract.declared) return schema
      changed = true
      return { ...schema, parameters: wire }
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
        return profile === undefined ? assembled : this.project(assembled, profile, context?.scope, tools)
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
