import {
  type EscalatingDefinition,
  type EscalationDropEvent,
  type EscalationFamily,
  withEscalationNormalization,
} from './definition.ts'
import { JUSTIFICATION, SANDBOX_PERMISSIONS } from './normalize.ts'
import { DenialTokenStore } from './tokens.ts'

/** Configuration shared by `@dsh-harden/tool-bash`, `-tool-pwsh` and `-tool-fs`, as written in a DSH profile. */
export interface EscalationConfig {
  /** Denial-bound escalation: a wider mode is honoured only as the retry of a call the sandbox just denied. */
  readonly denialBound?: boolean | undefined
  /** Lifetime of a denial token, in milliseconds. Default 120 000. */
  readonly tokenTtlMs?: number | undefined
}

export interface EscalationSettings {
  readonly denialBound: boolean
  readonly tokenTtlMs: number | undefined
}

/** Validates a plugin's config, failing loudly with the plugin's name and the value that was wrong. */
export function readEscalationConfig(plugin: string, config: unknown): EscalationSettings {
  const given = (config ?? {}) as EscalationConfig
  const known = new Set(['denialBound', 'tokenTtlMs'])
  const unknown = Object.keys(given).filter((key) => !known.has(key))
  if (unknown.length > 0)
    throw new TypeError(
      `${plugin}: unknown config key ${unknown.map((k) => `"${k}"`).join(', ')}; use denialBound, tokenTtlMs`,
    )
  const denialBound = given.denialBound ?? false
  if (typeof denialBound !== 'boolean')
    throw new TypeError(`${plugin}: denialBound must be true or false, got ${JSON.stringify(denialBound)}`)
  const ttl = given.tokenTtlMs
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0))
    throw new TypeError(
      `${plugin}: tokenTtlMs must be a positive number of milliseconds, got ${JSON.stringify(ttl)}`,
    )
  if (ttl !== undefined && !denialBound)
    throw new TypeError(`${plugin}: tokenTtlMs only applies with denialBound: true; set both or neither`)
  return { denialBound, tokenTtlMs: ttl }
}

/** Whether DSH advertised the escalation fields on this definition: its own "a confining backend is mounted". */
export function advertisesEscalation(definition: { readonly parameters?: unknown }): boolean {
  const properties = (definition.parameters as { properties?: Record<string, unknown> } | undefined)
    ?.properties
  return (
    typeof properties === 'object' &&
    properties !== null &&
    Object.hasOwn(properties, SANDBOX_PERMISSIONS) &&
    Object.hasOwn(properties, JUSTIFICATION)
  )
}

export interface EscalationTransformOptions {
  /** The plugin adding the transform (`dsh-harden-tool-bash`, ...). */
  readonly name: string
  /**
   * The DSH plugin whose tools these are, as cordis names it when it registers them (`tool-bash`, `tool-pwsh`,
   * `tool-fs`: the `name` each `@deepseek-ai/dsh-tool-*` package exports). A tool with a family's name registered by
   * any other plugin is a look-alike and is left alone.
   */
  readonly source: string
  /** Told once per look-alike registration that was left alone, with the reason. */
  readonly onSkipped?: ((message: string) => void) | undefined
  /** Per DSH tool name, the family facts for that tool's definition as DSH registered it. */
  readonly families: Readonly<Record<string, (definition: EscalatingDefinition) => EscalationFamily>>
  readonly settings: EscalationSettings
  readonly onDropped?: ((event: EscalationDropEvent) => void) | undefined
}

/** Who registers a tool: `@dsh-harden/overlay`'s `Registration` (the registering plugin's cordis name). */
export interface ToolRegistration {
  readonly source: string | undefined
  /** Registered before anything that records sources was running (the overlay's `early` row names it). */
  readonly unrecorded?: true | undefined
}

/** The shape `@dsh-harden/overlay`'s `addDefinitionTransform` takes (structural, so this package needs no overlay). */
export interface EscalationTransform {
  readonly name: string
  readonly tokens: DenialTokenStore | undefined
  transform(
    definition: EscalatingDefinition,
    registration: ToolRegistration,
  ): EscalatingDefinition | undefined
}

/**
 * A definition transform that applies the escalation rules to DSH's own first-party tools, recognised by the plugin
 * that registers them (not by their name alone), and leaves every other tool alone.
 */
export function escalationTransform(options: EscalationTransformOptions): EscalationTransform {
  const tokens = options.settings.denialBound
    ? new DenialTokenStore({ ttlMs: options.settings.tokenTtlMs })
    : undefined
  return {
    name: options.name,
    tokens,
    transform(definition, registration) {
      const name = definition.name
      if (typeof name !== 'string' || !Object.hasOwn(options.families, name)) return undefined
      if (registration.source !== options.source) {
        const by = registration.unrecorded
          ? 'before this row started, by a plugin nothing recorded (add the @dsh-harden/overlay/early row to name it)'
          : registration.source === undefined
            ? 'outside any plugin'
            : `by plugin "${registration.source}"`
        options.onSkipped?.(
          `${options.name}: left the tool "${name}" registered ${by} alone; only DSH's own "${name}" (registered by "${options.source}") gets the escalation rules`,
        )
        return undefined
      }
      const family = (options.families[name] as (d: EscalatingDefinition) => EscalationFamily)(definition)
      return withEscalationNormalization(definition, { family, tokens, onDropped: options.onDropped })
    },
  }
}

/** One log line for a removal: what was dropped, why, under which mode. */
export function describeDrop(event: EscalationDropEvent): string {
  const fields = event.dropped.map((d) => `${d.field}=${JSON.stringify(d.value)} (${d.reason})`).join(', ')
  return `${event.tool} (${String(event.callId)}): removed ${fields} before DSH's escalation checks; effective mode ${event.effectiveMode ?? '(unconfined)'}`
}
