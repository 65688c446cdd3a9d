import type { Context } from '@deepseek-ai/cordis'
import {
  addTransform,
  admissionOf,
  closePending,
  type Origin,
  openPending,
  originOf,
  pendingOrigin,
  recordedOrigin,
  recordOrigin,
  removeTransform,
  setTransformStage,
  transformStageOf,
  transformsOf,
} from './instance-state.ts'
import { stderrAndLogger } from './notice-sink.ts'
import { installOwnMethod } from './own-method.ts'
import { type Registration, registrationOf } from './registrant.ts'
import { dshRegistryOf, rawTools, unsupportedShapeNotice } from './registry.ts'
import type { DefinitionTransform, RegisteredTool, RegisterMethod } from './tool-definition.ts'

/** The `changedBy` of every origin no transform changed: one shared empty list. */
const NO_TRANSFORMS: readonly DefinitionTransform[] = Object.freeze([])

/** `registered` through `transforms` in order, with the transforms that changed it; `registered` when none did. */
function transformed(
  registered: RegisteredTool,
  registration: Registration,
  transforms: Iterable<DefinitionTransform>,
): { readonly definition: RegisteredTool; readonly origin: Origin } {
  let current = registered
  let changedBy: DefinitionTransform[] | undefined
  for (const transform of transforms) {
    const next = transform.transform(current, registration)
    if (next === undefined || next === current) continue
    current = next
    changedBy ??= []
    changedBy.push(transform)
  }
  return { definition: current, origin: { registered, registration, changedBy: changedBy ?? NO_TRANSFORMS } }
}

/** What a registration of `given` hands on: `given` through every transform added for `tools`, and its origin. */
function forRegistration(
  tools: object,
  given: RegisteredTool,
  registration: Registration,
): { readonly definition: RegisteredTool; readonly origin: Origin } {
  const set = transformsOf(tools)
  if (set === undefined || set.size === 0 || typeof given !== 'object' || given === null)
    return { definition: given, origin: { registered: given, registration, changedBy: NO_TRANSFORMS } }
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

/** One `register` call as a wrapper hands it on: the definition after the transforms, and its origin. */
export interface RegistrationPass<D> {
  readonly definition: D
  readonly origin: Origin
  /** Whether this wrapper is the outermost one, which opened the pending origin and must close it. */
  readonly outermost: boolean
}

/**
 * Begins one `register` call in a wrapper (the overlay's guard, the transform stage): whichever wrapper sits on top
 * applies the transforms and makes the origin pending, and the ones below it get the same definition and origin, so
 * every transform sees each registration once. The caller hands `definition` on and calls `endRegistration` in a
 * `finally`. `receiver` is the `register` call's `this`, read for the registering plugin only when needed.
 */
export function beginRegistration<D extends RegisteredTool>(
  tools: object | undefined,
  given: D,
  receiver: unknown,
): RegistrationPass<D> {
  if (tools === undefined) {
    const origin = { registered: given, registration: registrationOf(receiver), changedBy: NO_TRANSFORMS }
    return { definition: given, origin, outermost: false }
  }
  const pending = pendingOrigin(tools)
  if (pending !== undefined) return { definition: given, origin: pending, outermost: false }
  const { definition, origin } = forRegistration(tools, given, registrationOf(receiver))
  openPending(tools, origin)
  return { definition: definition as D, origin, outermost: true }
}

/** Ends what `beginRegistration` began. */
export function endRegistration(tools: object | undefined, pass: RegistrationPass<unknown>): void {
  if (pass.outermost && tools !== undefined) closePending(tools)
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
  return transformed(origin.registered, origin.registration, transformsOf(tools) ?? [])
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

/**
 * Adds a transform for the live `tools` service and makes sure registrations go through it even when the overlay is
 * not loaded: one shared `register` stage per tools instance, removed with the last transform (or, when another
 * wrapper sits above it, left as a pass-through). Tools already registered are rebuilt with it now; removing it
 * rebuilds each tool it changed without it. Returns the disposer; call it from `ctx.effect`.
 */
export function addDefinitionTransform(ctx: Context, transform: DefinitionTransform): () => void {
  const tools = rawTools(ctx)
  addTransform(tools, transform)
  const added = transformsOf(tools) ?? []
  let stage = transformStageOf(tools)
  if (stage === undefined) {
    const uninstall = installOwnMethod<'register', RegisterMethod>(
      tools,
      'register',
      (previous) =>
        function register(this: unknown, given) {
          const pass = beginRegistration(tools, given, this)
          try {
            // Noted for a transform added later, which rebuilds the tool from what its plugin registered.
            recordOrigin(tools, pass.definition, pass.origin)
            return previous.call(this, pass.definition)
          } finally {
            endRegistration(tools, pass)
          }
        },
    )
    stage = { count: 0, uninstall }
    setTransformStage(tools, stage)
  }
  const own = stage
  own.count++
  // DSH's first-party tools are mounted with the session's agent, often before a tool package's row has applied.
  const registry = dshRegistryOf(tools)
  if (registry === undefined) unsupportedShapeNotice(tools, stderrAndLogger(ctx))
  else
    registry.rewrite((entry) =>
      rebuilt(tools, entry, added, (_, after) => after.changedBy.includes(transform)),
    )
  return () => {
    removeTransform(tools, transform)
    registry?.rewrite((entry) =>
      rebuilt(tools, entry, transformsOf(tools) ?? [], (before) => before.changedBy.includes(transform)),
    )
    if (--own.count > 0) return
    setTransformStage(tools, undefined)
    own.uninstall()
  }
}
