import type { Context } from '@deepseek-ai/cordis'
import { installOwnMethod } from './own-method.ts'
import type { RegisteredTool, RegisterMethod } from './registration.ts'

/**
 * An extension point for tool packages (`@dsh-harden/tool-bash`, `-tool-pwsh`, `-tool-fs`): change one tool's
 * definition as it registers, before the overlay's contract and projection see it. Order-independent: whether the
 * overlay or the tool package loads first, every transform runs exactly once and before the contract.
 */
export interface DefinitionTransform {
  /** Who added it, for diagnostics. */
  readonly name: string
  /**
   * The definition to register instead, or `undefined` to leave this one as it is. `registration.source` names the
   * plugin that registers the tool, so a transform can select DSH's own first-party tools by who registers them.
   */
  transform(definition: RegisteredTool, registration: Registration): RegisteredTool | undefined
}

/** Who is registering a tool, as far as the `register` call tells. */
export interface Registration {
  /**
   * The registering plugin's name: cordis' `ctx.fiber.name`, i.e. the `name` the plugin (or its module) exports —
   * `tool-bash`, `tool-pwsh`, `tool-fs` for DSH's first-party tool packages. `undefined` for a registration made from
   * the root context, where no plugin is on the stack.
   */
  readonly source: string | undefined
}

/** The registering plugin's name, read from the calling context cordis binds as `this.ctx`. */
export function registrationOf(receiver: unknown): Registration {
  try {
    const name = (receiver as { ctx?: { fiber?: { name?: unknown } } } | null)?.ctx?.fiber?.name
    return { source: typeof name === 'string' && name !== 'root' ? name : undefined }
  } catch {
    return { source: undefined }
  }
}

// Symbol.for, not module-local state: two copies of this module in one process must still share one registry.
const TRANSFORMS = Symbol.for('dsh-harden.overlay.definition-transforms')
const TRANSFORMED = Symbol.for('dsh-harden.overlay.transformed')
const STAGE = Symbol.for('dsh-harden.overlay.transform-stage')
const APPLYING = Symbol.for('dsh-harden.overlay.transforms-applying')
const ORIGINAL = Symbol.for('cordis.original')

interface ToolsInstance {
  register: RegisterMethod
}

type Slots = Record<symbol, unknown>

/** The service instance behind cordis' proxy, where an own `register` shadows the prototype's for every caller. */
export function rawTools(ctx: Context): ToolsInstance {
  const proxy = (ctx as unknown as { tools: Slots & ToolsInstance }).tools
  return (proxy[ORIGINAL] as ToolsInstance | undefined) ?? proxy
}

/** The instance behind a `register` receiver (a cordis proxy or the runtime itself). */
export function toolsOfReceiver(receiver: unknown): object | undefined {
  if (typeof receiver !== 'object' || receiver === null) return undefined
  try {
    return ((receiver as Slots)[ORIGINAL] as object | undefined) ?? receiver
  } catch {
    return undefined
  }
}

function transformsOf(tools: object, create: boolean): Set<DefinitionTransform> | undefined {
  const slots = tools as Slots
  let set = slots[TRANSFORMS] as Set<DefinitionTransform> | undefined
  if (set === undefined && create) {
    set = new Set()
    Object.defineProperty(tools, TRANSFORMS, { value: set, configurable: true })
  }
  return set
}

/**
 * Every transform added for `tools`, applied once. A changed definition is marked (the mark is a symbol key, which
 * the overlay's own spread keeps), so the other registration path leaves it alone.
 */
export function applyDefinitionTransforms<D extends RegisteredTool>(
  tools: object | undefined,
  definition: D,
  registration: Registration = { source: undefined },
): D {
  const set = tools === undefined ? undefined : transformsOf(tools, false)
  if (set === undefined || set.size === 0) return definition
  if (typeof definition !== 'object' || definition === null) return definition
  if ((definition as Slots)[TRANSFORMED] === true) return definition
  let current: RegisteredTool = definition
  for (const transform of set) current = transform.transform(current, registration) ?? current
  return current === definition ? definition : ({ ...current, [TRANSFORMED]: true } as unknown as D)
}

/**
 * Applies the transforms, then calls `next` with the result. Both `register` wrappers (the overlay's guard and the
 * transform stage) go through here, and whichever sits on top does the work: while its call runs, the one below
 * passes the definition straight on, so every transform sees each registration once. `register` is synchronous, so
 * the flag spans exactly that one call.
 */
export function withDefinitionTransforms<D extends RegisteredTool, R>(
  tools: object | undefined,
  definition: D,
  registration: Registration,
  next: (definition: D) => R,
): R {
  if (tools === undefined || (tools as Slots)[APPLYING] === true) return next(definition)
  const transformed = applyDefinitionTransforms(tools, definition, registration)
  Object.defineProperty(tools, APPLYING, { value: true, configurable: true })
  try {
    return next(transformed)
  } finally {
    delete (tools as Slots)[APPLYING]
  }
}

interface Stage {
  count: number
  readonly uninstall: () => void
}

/**
 * Adds a transform for the live `tools` service and makes sure registrations go through it even when the overlay is
 * not loaded: one shared `register` stage per tools instance, removed with the last transform (or, when another
 * wrapper sits above it, left as a pass-through). Returns the disposer; call it from `ctx.effect`.
 */
export function addDefinitionTransform(ctx: Context, transform: DefinitionTransform): () => void {
  const tools = rawTools(ctx)
  const set = transformsOf(tools, true) as Set<DefinitionTransform>
  set.add(transform)
  const slots = tools as unknown as Slots
  let stage = slots[STAGE] as Stage | undefined
  if (stage === undefined) {
    const uninstall = installOwnMethod<'register', RegisterMethod>(
      tools,
      'register',
      (previous) =>
        function register(this: unknown, definition) {
          return withDefinitionTransforms(tools, definition, registrationOf(this), (transformed) =>
            previous.call(this, transformed),
          )
        },
    )
    stage = { count: 0, uninstall }
    Object.defineProperty(tools, STAGE, { value: stage, configurable: true })
  }
  const own = stage
  own.count++
  return () => {
    set.delete(transform)
    if (--own.count > 0) return
    delete slots[STAGE]
    own.uninstall()
  }
}
