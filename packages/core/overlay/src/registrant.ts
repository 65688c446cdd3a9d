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
