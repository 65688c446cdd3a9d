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

const FROM_ROOT: Registration = Object.freeze({ source: undefined })

/**
 * One record per calling context, shared by its registrations (each is kept with its tool). A context belongs to one
 * plugin for its life, so its name is read through cordis' context proxy once, not at every registration.
 */
const byContext = new WeakMap<object, Registration>()

function nameOf(ctx: object): Registration {
  const name = (ctx as { fiber?: { name?: unknown } }).fiber?.name
  return typeof name === 'string' && name !== 'root' ? Object.freeze({ source: name }) : FROM_ROOT
}

/** The registering plugin's name, read from the calling context cordis binds as `this.ctx`. */
export function registrationOf(receiver: unknown): Registration {
  try {
    const ctx = (receiver as { ctx?: unknown } | null)?.ctx
    if (typeof ctx !== 'object' || ctx === null) return FROM_ROOT
    let found = byContext.get(ctx)
    if (found === undefined) {
      found = nameOf(ctx)
      byContext.set(ctx, found)
    }
    return found
  } catch {
    return FROM_ROOT
  }
}
