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
  /** Told why the wire schema read is the declared one (`Projection.notProjected`). */
  readonly onNotProjected?: ((reason: string) => void) | undefined
}

type Presenter<A extends unknown[]> = ((args: unknown, ...rest: A) => unknown) | undefined

/** `presenter`, called as a method of `owner`, on the arguments read back into the declared shape. */
function present<A extends unknown[]>(
  presenter: Presenter<A>,
  owner: object,
  binding: ContractBinding,
): Presenter<A> {
  if (presenter === undefined) return undefined
  return (args, ...rest) => {
    // Presenters must never fail a call: they get the best reading, or the raw arguments if even that fails.
    let normalized = args
    try {
      const profile = binding.profile()
      if (profile !== undefined) normalized = binding.contract.normalizeArguments(args, profile)
    } catch {}
    return presenter.call(owner, normalized, ...rest)
  }
}

/**
 * For a bare guard with a configured route (the prototype installer): the definition with the wire schema for the
 * route and every argument consumer reading normalized arguments. The overlay plugin never copies a definition for
 * this; it reads calls back at DSH's call door (`declared-calls.ts`). One copy, built with exactly the members
 * `definition` has: an optional member stays absent rather than present-but-undefined (DSH checks some with
 * `!== undefined`), and nothing is deleted afterwards, which would leave DSH a slow dictionary-mode object to read at
 * every assembly and call.
 */
export function bindContract<D extends ArgumentConsumers>(definition: D, binding: ContractBinding): D {
  const { contract } = binding
  const { execute, output, presentCall, presentResult, isConcurrencySafe } = definition
  const bound: { -readonly [K in keyof ArgumentConsumers]: ArgumentConsumers[K] } = { ...definition }
  if (execute !== undefined)
    bound.execute = (args, exec) => {
      const profile = binding.profile(exec)
      if (profile === undefined) return execute.call(definition, args, exec)
      const normalized = binding.validateArguments
        ? contract.parseArguments(args, profile)
        : contract.normalizeArguments(args, profile)
      return execute.call(definition, normalized, exec)
    }
  if (presentCall !== undefined) bound.presentCall = present(presentCall, definition, binding)
  if (presentResult !== undefined) bound.presentResult = present(presentResult, definition, binding)
  if (isConcurrencySafe !== undefined)
    bound.isConcurrencySafe = present(isConcurrencySafe, definition, binding)
  if (output !== undefined) {
    const { render, presentationMeta } = output
    const boundOutput: { -readonly [K in keyof typeof output]: (typeof output)[K] } = { ...output }
    if (render !== undefined) boundOutput.render = present(render, output, binding)
    if (presentationMeta !== undefined)
      boundOutput.presentationMeta = present(presentationMeta, output, binding)
    bound.output = boundOutput
  }
  // Projected on first read (DSH reads `parameters` when it assembles a request), so registering stays cheap; the
  // contract caches the projection, so every later read is the same object.
  Object.defineProperty(bound, 'parameters', {
    enumerable: true,
    configurable: true,
    get: () => {
      const profile = binding.profile()
      if (profile === undefined) return contract.declared
      const projection = contract.projection(profile)
      if (projection.notProjected !== undefined) binding.onNotProjected?.(projection.notProjected)
      return projection.wire
    },
  })
  return bound as D
}
