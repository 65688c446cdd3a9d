import type { Context } from '@deepseek-ai/cordis'
import { admissionOf } from './admission.ts'
import { dshRegistryOf, rawTools, unsupportedShapeNotice } from './dsh-registry.ts'
import { stderrAndLogger } from './notices.ts'
import {
  type Origin,
  originOf,
  pendingOrigin,
  recordedOrigin,
  recordOrigin,
  whilePending,
} from './origins.ts'
import { installOwnMethod } from './own-method.ts'
import { type Registration, registrationOf } from './registrant.ts'
import type { RegisteredTool, RegisterMethod } from './registration.ts'

export type { Registration } from './registrant.ts'

/**
 * An extension point for tool packages (`@dsh-harden/tool-bash`, `-tool-pwsh`, `-tool-fs`): change one tool's
 * definition as it registers, before the overlay's contract and projection see it. Order-independent: whether the
 * overlay or the tool package loads first, every transform runs before the contract, once per registration; a tool
 * registered before the transform was added is rebuilt in place in DSH's registry (`dsh-registry.ts`) from the
 * definition its plugin registered, through every transform, and judged once; removing a transform rebuilds each tool
 * it changed without it.
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

// Symbol.for, not module-local state: two copies of this module in one process must still share one registry.
const TRANSFORMS = Symbol.for('dsh-harden.overlay.definition-transforms')
const STAGE = Symbol.for('dsh-harden.overlay.transform-stage')

type Slots = Record<symbol, unknown>

function transformsOf(tools: object, create: boolean): Set<DefinitionTransform> | undefined {
  const slots = tools as Slots
  let set = slots[TRANSFORMS] as Set<DefinitionTransform> | undefined
  if (set === undefined && create) {
    set = new Set()
    Object.defineProperty(tools, TRANSFORMS, { value: set, configurable: true })
  }
  return set
}

/** `registered` through `transforms` in order, with the transforms that changed it; `registered` when none did. */
function transformed(
  registered: RegisteredTool,
  registration: Registration,
  transforms: Iterable<DefinitionTransform>,
): { readonly definition: RegisteredTool; readonly origin: Origin } {
  let current = registered
  const changedBy: DefinitionTransform[] = []
  for (const transform of transforms) {
    const next = transform.transform(current, registration)
    if (next === undefined || next === current) continue
    current = next
    changedBy.push(transform)
  }
  return { definition: current, origin: { registered, registration, changedBy } }
}

/** What a registration of `given` hands on: `given` through every transform added for `tools`, and its origin. */
function forRegistration(
  tools: object,
  given: RegisteredTool,
  registration: Registration,
): { readonly definition: RegisteredTool; readonly origin: Origin } {
  const unchanged = { definition: given, origin: { registered: given, registration, changedBy: [] } }
  const set = transformsOf(tools, false)
  if (set === undefined || set.size === 0 || typeof given !== 'object' || given === null) return unchanged
  // A definition a transform produced, registered again as it is (read back through `get()`), is not changed twice.
  const known = recordedOrigin(tools, given)
  if (known !== undefined && known.changedBy.length > 0) return { definition: given, origin: known }
  return transformed(given, registration, set)
}

/** Every transform added for `tools`, applied once, for hosts that register through their own path. */
export function applyDefinitionTransforms<D extends RegisteredTool>(
  tools: object | undefined,
  definition: D,
  registration: Registration = { source: undefined },
): D {
  if (tools === undefined) return definition
  const { definition: changed, origin } = forRegistration(tools, definition, registration)
  if (changed !== definition) recordOrigin(tools, changed, origin)
  return changed as D
}

/**
 * Applies the transforms, then calls `next` with the result and its origin. Every `register` wrapper (the overlay's
 * guard, the transform stage) goes through here, and whichever sits on top does the work: while its call runs, the
 * ones below get the same definition and origin, so every transform sees each registration once.
 */
export function withDefinitionTransforms<D extends RegisteredTool, R>(
  tools: object | undefined,
  given: D,
  registration: Registration,
  next: (definition: D, origin: Origin) => R,
): R {
  if (tools === undefined) return next(given, { registered: given, registration, changedBy: [] })
  const pending = pendingOrigin(tools)
  if (pending !== undefined) return next(given, pending)
  const { definition, origin } = forRegistration(tools, given, registration)
  return whilePending(tools, origin, () => next(definition as D, origin))
}

/**
 * What an entry already in DSH's table is, for judging it: the definition its plugin registered through the transforms
 * added now, so an entry an earlier overlay bound (before a config reload restarted it) is judged and bound from what
 * was registered, never wrapped a second time. An entry nothing saw register is judged as it is.
 */
export function asRegistered(
  tools: object,
  entry: RegisteredTool,
): { readonly definition: RegisteredTool; readonly origin: Origin } {
  const origin = recordedOrigin(tools, entry)
  if (origin === undefined) return { definition: entry, origin: originOf(tools, entry) }
  return transformed(origin.registered, origin.registration, transformsOf(tools, false) ?? [])
}

/**
 * `entry` rebuilt from the definition its plugin registered, through `transforms`, when `affected` says the change of
 * transforms concerns it; then admitted by the overlay (judged and bound once) when it runs on `tools`. Never built
 * over `entry` itself, which may already be bound to a contract.
 */
function rebuilt(
  tools: object,
  entry: RegisteredTool,
  transforms: Iterable<DefinitionTransform>,
  affected: (before: Origin, after: Origin) => boolean,
): RegisteredTool {
  if (typeof entry !== 'object' || entry === null) return entry
  const before = originOf(tools, entry)
  const { definition, origin } = transformed(before.registered, before.registration, transforms)
  if (!affected(before, origin)) return entry
  const admit = admissionOf(tools)
  const next = admit === undefined ? definition : admit(definition, origin)
  recordOrigin(tools, next, origin)
  return next
}

interface Stage {
  count: number
  readonly uninstall: () => void
}

/**
 * Adds a transform for the live `tools` service and makes sure registrations go through it even when the overlay is
 * not loaded: one shared `register` stage per tools instance, removed with the last transform (or, when another
 * wrapper sits above it, left as a pass-through). Tools already registered are rebuilt with it now; removing it
 * rebuilds each tool it changed without it. Returns the disposer; call it from `ctx.effect`.
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
        function register(this: unknown, given) {
          return withDefinitionTransforms(tools, given, registrationOf(this), (definition, origin) => {
            // Noted for a transform added later, which rebuilds the tool from what its plugin registered.
            recordOrigin(tools, definition, origin)
            return previous.call(this, definition)
          })
        },
    )
    stage = { count: 0, uninstall }
    Object.defineProperty(tools, STAGE, { value: stage, configurable: true })
  }
  const own = stage
  own.count++
  // DSH's first-party tools are mounted with the session's agent, often before a tool package's row has applied.
  const registry = dshRegistryOf(tools)
  if (registry === undefined) unsupportedShapeNotice(tools, stderrAndLogger(ctx))
  else
    registry.rewrite((entry) => rebuilt(tools, entry, set, (_, after) => after.changedBy.includes(transform)))
  return () => {
    set.delete(transform)
    registry?.rewrite((entry) => rebuilt(tools, entry, set, (before) => before.changedBy.includes(transform)))
    if (--own.count > 0) return
    delete slots[STAGE]
    own.uninstall()
  }
}
