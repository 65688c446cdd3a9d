/** Who is registering a tool, as far as the `register` call tells. */
export interface Registration {
  /**
   * The registering plugin's name: cordis' `ctx.fiber.name`, i.e. the `name` the plugin (or its module) exports —
   * `tool-bash`, `tool-pwsh`, `tool-fs` for DSH's first-party tool packages. `undefined` for a registration made from
   * the root context, where no plugin is on the stack, and for an `unrecorded` one.
   */
  readonly source: string | undefined
  /**
   * The module specifier of the profile row that loaded that plugin (`options.name`: a package, or a path inside
   * one), from which notices name the npm package the user installed. Absent when no row loaded it.
   */
  readonly row?: string | undefined
  /**
   * Set for a tool registered before the transform was added when nothing recorded its plugin (the
   * `@dsh-harden/overlay/early` row records it from the moment DSH provides `tools`).
   */
  readonly unrecorded?: true
}

const FROM_ROOT: Registration = Object.freeze({ source: undefined })

/**
 * One record per plugin fiber, shared by its registrations (each is kept with its tool). The context a `register`
 * call sees as `this.ctx` is a fresh shadow that cordis' proxy builds for each property read, so it cannot key a
 * cache; its fiber is the plugin's own, for the plugin's life, and so is the fiber's name.
 */
const byFiber = new WeakMap<object, Registration>()

function nameOf(fiber: { name?: unknown; entry?: { options?: { name?: unknown } } }): Registration {
  const name = fiber.name
  if (typeof name !== 'string' || name === 'root') return FROM_ROOT
  // The loader row that runs this fiber (`@deepseek-ai/cordis-plugin-loader` sets `fiber.entry`). Only the string is
  // kept: this module is in the early row's graph, which must import fast to start before other rows register.
  const specifier = fiber.entry?.options?.name
  return Object.freeze(typeof specifier === 'string' ? { source: name, row: specifier } : { source: name })
}

/** The registering plugin's name, read from the calling context cordis binds as `this.ctx`. */
export function registrationOf(receiver: unknown): Registration {
  try {
    const fiber = (receiver as { ctx?: { fiber?: unknown } } | null)?.ctx?.fiber
    if (typeof fiber !== 'object' || fiber === null) return FROM_ROOT
    let found = byFiber.get(fiber)
    if (found === undefined) {
      found = nameOf(fiber)
      byFiber.set(fiber, found)
    }
    return found
  } catch {
    return FROM_ROOT
  }
}
