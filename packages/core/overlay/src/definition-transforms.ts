import type { Context } from '@deepseek-ai/cordis'
import { recordedRegistration, recordSource } from './early.ts'
import { stderrAndLogger } from './notices.ts'
import { installOwnMethod } from './own-method.ts'
import type { RegisteredTool, RegisterMethod } from './registration.ts'
import { rewriteRegistered } from './registry-tables.ts'

/**
 * An extension point for tool packages (`@dsh-harden/tool-bash`, `-tool-pwsh`, `-tool-fs`): change one tool's
 * definition as it registers, before the overlay's contract and projection see it. Order-independent: whether the
 * overlay or the tool package loads first, every transform runs exactly once and before the contract; a tool
 * registered before the transform was added is changed in place in DSH's registry (see `registry-tables.ts`), and
 * every change a transform made is undone when it is removed.
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
   * the root context, where no plugin is on the stack, and for an `unrecorded` one.
   */
  readonly source: string | undefined
  /**
   * Set for a tool registered before the transform was added when nothing recorded its plugin (the
   * `@dsh-harden/overlay/early` row records it from the moment DSH provides `tools`).
   */
  readonly unrecorded?: true
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
// On a changed definition: the one registered (to restore), its registration, and the transforms that changed it.
const BASE = Symbol.for('dsh-harden.overlay.transform-base')
const REGISTRATION = Symbol.for('dsh-harden.overlay.transform-registration')
const CHANGED_BY = Symbol.for('dsh-harden.overlay.transformed-by')
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

/** The definition `changed` by `by`, marked with what to restore and with who changed it. */
function marked(
  changed: RegisteredTool,
  base: RegisteredTool,
  registration: Registration,
  by: readonly DefinitionTransform[],
): RegisteredTool {
  const marks = { [TRANSFORMED]: true, [BASE]: base, [REGISTRATION]: registration, [CHANGED_BY]: by }
  return { ...changed, ...marks } as RegisteredTool
}

/** `base` through `transforms` in order; `base` itself when none changed it. */
function transformed(
  base: RegisteredTool,
  registration: Registration,
  transforms: Iterable<DefinitionTransform>,
): RegisteredTool {
  let current = base
  const by: DefinitionTransform[] = []
  for (const transform of transforms) {
    const next = transform.transform(current, registration)
    if (next === undefined || next === current) continue
    current = next
    by.push(transform)
  }
  return by.length === 0 ? base : marked(current, base, registration, by)
}

/**
 * Every transform added for `tools`, applied once. A changed definition is marked (the marks are symbol keys, which
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
  return transformed(definition, registration, set) as D
}

/** Who registered an entry already in the registry: its mark, else what a recorder noted, else unrecorded. */
function registrationOfEntry(tools: object, entry: RegisteredTool): Registration {
  const mark = (entry as Slots)[REGISTRATION] as Registration | undefined
  return mark ?? recordedRegistration(tools, entry) ?? { source: undefined, unrecorded: true }
}

/** An entry registered before `transform` was added, as if `transform` had been there: it runs last on it. */
function withLateTransform(
  tools: object,
  entry: RegisteredTool,
  transform: DefinitionTransform,
): RegisteredTool {
  if (typeof entry !== 'object' || entry === null) return entry
  const slots = entry as Slots
  const registration = registrationOfEntry(tools, entry)
  const next = transform.transform(entry, registration)
  if (next === undefined || next === entry) return entry
  const base = (slots[BASE] as RegisteredTool | undefined) ?? entry
  const by = (slots[CHANGED_BY] as readonly DefinitionTransform[] | undefined) ?? []
  return marked(next, base, registration, [...by, transform])
}

/** An entry `removed` had changed, rebuilt from the registered definition through the transforms still added. */
function withoutTransform(
  entry: RegisteredTool,
  removed: DefinitionTransform,
  remaining: Iterable<DefinitionTransform>,
): RegisteredTool {
  if (typeof entry !== 'object' || entry === null) return entry
  const slots = entry as Slots
  const by = slots[CHANGED_BY] as readonly DefinitionTransform[] | undefined
  if (by === undefined || !by.includes(removed)) return entry
  return transformed(slots[BASE] as RegisteredTool, slots[REGISTRATION] as Registration, remaining)
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
 * wrapper sits above it, left as a pass-through). Tools already registered get the transform now; removing it puts
 * back what each tool it changed would be without it. Returns the disposer; call it from `ctx.effect`.
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
          const registration = registrationOf(this)
          // Noted for a transform added later, which must know the plugin of a tool it did not see register.
          recordSource(tools, definition, registration.source)
          return withDefinitionTransforms(tools, definition, registration, (changed) =>
            previous.call(this, changed),
          )
        },
    )
    stage = { count: 0, uninstall }
    Object.defineProperty(tools, STAGE, { value: stage, configurable: true })
  }
  const own = stage
  own.count++
  // DSH's first-party tools are mounted with the session's agent, often before a tool package's row has applied.
  if (!rewriteRegistered(tools, (entry) => withLateTransform(tools, entry, transform)))
    stderrAndLogger(ctx)(
      `dsh-harden: ${transform.name}: this DSH tool registry is not the rc.8 shape (no named tables in its layers), ` +
        `so a tool registered before ${transform.name} started keeps its definition. Pin @deepseek-ai/dsh-tools ` +
        'to 0.1.0-rc.8 or report this.',
    )
  return () => {
    set.delete(transform)
    rewriteRegistered(tools, (entry) => withoutTransform(entry, transform, set))
    if (--own.count > 0) return
    delete slots[STAGE]
    own.uninstall()
  }
}
