import type { EscalatingDefinition, EscalationFamily } from './definition.ts'
import type { SandboxPolicyView } from './shell-family.ts'
import {
  describeDrop,
  type EscalationConfig,
  type EscalationTransform,
  escalationTransform,
  readEscalationConfig,
} from './transform.ts'

/** What the plugin uses of a cordis `Context` (structural, so this package needs neither cordis nor the overlay). */
export interface EscalationPluginContext {
  logger(name: string): {
    debug(message: string): void
    info(message: string): void
    warn(message: string): void
  }
  effect(execute: () => () => void, label?: string): unknown
}

export interface EscalationPluginOptions<C extends EscalationPluginContext> {
  /** The cordis plugin name (`dsh-harden-tool-bash`, ...): config errors and the transform carry it. */
  readonly name: string
  /** The DSH tools it changes, as the effect label names them (`bash`, `write/edit`). */
  readonly tools: string
  /** The DSH plugin that registers those tools (`tool-bash`, `tool-pwsh`, `tool-fs`); look-alikes are left alone. */
  readonly source: string
  /** Per DSH tool name, that tool's family, given the live sandbox-policy service. */
  readonly families: (
    policy: () => SandboxPolicyView,
  ) => Readonly<Record<string, (definition: EscalatingDefinition) => EscalationFamily>>
  /** `@dsh-harden/overlay`'s `addDefinitionTransform`, passed in so this package stays free of the overlay. */
  readonly addDefinitionTransform: (ctx: C, transform: EscalationTransform) => () => void
}

/** A cordis plugin object: `{ name, inject, apply }`. */
export interface EscalationPlugin<C extends EscalationPluginContext> {
  readonly name: string
  readonly inject: string[]
  apply(ctx: C, config?: EscalationConfig): void
}

/**
 * The cordis plugin each tool package is: it validates its config, adds the escalation transform for its DSH tools
 * (removed with the plugin), and logs each removal (at `info` when the model gets a notice, else `debug`).
 */
export function escalationPlugin<C extends EscalationPluginContext>(
  options: EscalationPluginOptions<C>,
): EscalationPlugin<C> {
  const { name } = options
  return {
    name,
    inject: ['tools'],
    apply(ctx, config) {
      const settings = readEscalationConfig(name, config)
      const logger = ctx.logger('dsh-harden')
      // Read at call time, as DSH's tools do: the live sandbox-policy service resolves each call's mode.
      const policy = () =>
        (ctx as unknown as { get(key: string): unknown }).get('sandboxPolicy') as SandboxPolicyView
      const transform = escalationTransform({
        name,
        source: options.source,
        onSkipped: (message) => logger.warn(message),
        settings,
        families: options.families(policy),
        onDropped: (event) => {
          if (event.notice === undefined) logger.debug(describeDrop(event))
          else logger.info(describeDrop(event))
        },
      })
      ctx.effect(
        () => options.addDefinitionTransform(ctx, transform),
        `dsh-harden: ${options.tools} escalation fields`,
      )
    },
  }
}
