import type { ProfileId, ToolContract } from '@dsh-harden/tools'

/**
 * The parts of DSH's `ToolDefinition` (`packages/core/tools/src/index.ts`) that see a call's arguments. Every one of
 * them gets the same normalized arguments, so the tool body, the UI and the concurrency check agree on one call.
 */
interface ArgumentConsumers {
  readonly parameters?: unknown
  readonly execute?: ((args: unknown, exec: unknown) => unknown) | undefined
  readonly presentCall?: ((args: unknown) => unknown) | undefined
  readonly presentResult?: ((args: unknown, result: unknown) => unknown) | undefined
  readonly isConcurrencySafe?: ((args: unknown) => unknown) | undefined
  readonly output?:
    | {
        readonly render?: ((args: unknown, value: unknown) => unknown) | undefined
        readonly presentationMeta?: ((args: unknown, value: unknown) => unknown) | undefined
      }
    | undefined
}

export interface ContractBinding {
  readonly contract: ToolContract
  /**
   * The route a call's arguments were written for, given the call's `exec` (DSH's `ToolRunContext`, which names the
   * agent) or nothing (presenters). `undefined`: arguments reach the tool as sent.
   */
  readonly profile: (exec?: unknown) => ProfileId | undefined
  /** Throw `ToolArgsError` before `execute` when arguments do not match (DSH itself validates only defineTool tools). */
  readonly validateArguments: boolean
  /**
   * `wire` (default): `parameters` reads as the wire schema of `profile()`. `declared`: as declared, for hosts that
   * project per request where DSH assembles it.
   */
  readonly parameters?: 'wire' | 'declared' | undefined
}

type Presenter<A extends unknown[]> = ((args: unknown, ...rest: A) => unknown) | undefined

function present<A extends unknown[]>(presenter: Presenter<A>, binding: ContractBinding): Presenter<A> {
  if (presenter === undefined) return undefined
  return (args, ...rest) => {
    // Presenters must never fail a call: they get the best reading, or the raw arguments if even that fails.
    let normalized = args
    try {
      const profile = binding.profile()
      if (profile !== undefined) normalized = binding.contract.normalizeArguments(args, profile)
    } catch {}
    return presenter(normalized, ...rest)
  }
}

/** The definition with the wire schema for the route and every argument consumer reading normalized arguments. */
export function bindContract<D extends ArgumentConsumers>(definition: D, binding: ContractBinding): D {
  const { contract } = binding
  const { execute, output } = definition
  const bound: ArgumentConsumers = {
    ...definition,
    execute:
      execute &&
      ((args, exec) => {
        const profile = binding.profile(exec)
        if (profile === undefined) return execute.call(definition, args, exec)
        const normalized = binding.validateArguments
          ? contract.parseArguments(args, profile)
          : contract.normalizeArguments(args, profile)
        return execute.call(definition, normalized, exec)
      }),
    presentCall: present(definition.presentCall?.bind(definition), binding),
    presentResult: present(definition.presentResult?.bind(definition), binding),
    isConcurrencySafe: present(definition.isConcurrencySafe?.bind(definition), binding),
    output: output && {
      ...output,
      render: present(output.render?.bind(output), binding),
      presentationMeta: present(output.presentationMeta?.bind(output), binding),
    },
  }
  // Projected on first read (DSH reads `parameters` when it assembles a request), so registering stays cheap; the
  // contract caches the projection, so every later read is the same object.
  if (binding.parameters !== 'declared') {
    Object.defineProperty(bound, 'parameters', {
      enumerable: true,
      configurable: true,
      get: () => {
        const profile = binding.profile()
        return profile === undefined ? contract.declared : contract.projection(profile).wire
      },
    })
  }
  // Optional members stay absent rather than present-but-undefined: DSH checks some of them with `!== undefined`.
  for (const key of ['presentCall', 'presentResult', 'isConcurrencySafe'] as const)
    if (bound[key] === undefined) delete (bound as Record<string, unknown>)[key]
  if (bound.output?.presentationMeta === undefined && bound.output !== undefined)
    delete (bound.output as Record<string, unknown>).presentationMeta
  return bound as D
}
