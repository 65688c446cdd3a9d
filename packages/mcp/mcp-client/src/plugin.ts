import type { Context } from '@deepseek-ai/cordis'
import { formatViolation, PROFILE_IDS, type ProfileId } from '@dsh-harden/tools'
import { type IntakeEvent, type IntakeInstallation, installTolerantIntakeOn } from './install.ts'
import { loadMcpSdk } from './sdk-instance.ts'
import type { IntakePolicy } from './types.ts'

/** Configuration of the intake plugins, as written in a DSH profile. */
export interface TolerantIntakeConfig {
  /** `contract` (default) or `spec`; see `IntakePolicy`. */
  readonly policy?: IntakePolicy | undefined
  /** Project both schemas of each accepted tool for this route (reported through `projections`). */
  readonly profile?: ProfileId | undefined
}

function readConfig(config: unknown): TolerantIntakeConfig {
  const given = (config ?? {}) as TolerantIntakeConfig
  if (given.policy !== undefined && given.policy !== 'contract' && given.policy !== 'spec')
    throw new TypeError(
      `dsh-harden mcp intake: policy ${JSON.stringify(given.policy)} is not contract or spec`,
    )
  if (given.profile !== undefined && !PROFILE_IDS.includes(given.profile))
    throw new TypeError(
      `dsh-harden mcp intake: profile ${JSON.stringify(given.profile)} is not one of ${PROFILE_IDS.join(', ')}`,
    )
  return { policy: given.policy, profile: given.profile }
}

/** One warning per repaired or isolated tool, in DSH's `mcp-client(<server>)` voice. */
export function describeIntake(event: IntakeEvent): string[] {
  const { server, result, listed } = event
  const label = `mcp-client(${server})`
  const lines = result.repairs.map(
    (repair) =>
      `${label}: repaired the ${repair.schema} of tool "${repair.tool}": ${repair.repaired.map(formatViolation).join('; ')}`,
  )
  for (const diagnostic of result.diagnostics) {
    const what =
      diagnostic.effect === 'isolated'
        ? `isolated tool "${diagnostic.tool}" (not registered; the other tools are)`
        : `dropped the output schema of tool "${diagnostic.tool}" (registered; its output is not validated)`
    lines.push(`${label}: ${what}: ${diagnostic.violations.map(formatViolation).join('; ')}`)
  }
  if (lines.length > 0) lines.push(`${label}: ${result.tools.length} of ${listed} listed tools accepted`)
  return lines
}

function reporter(ctx: Context) {
  return (event: IntakeEvent): void => {
    const logger = ctx.logger('dsh-harden')
    for (const line of describeIntake(event)) logger.warn(line)
  }
}

/**
 * `ctx.plugin(TolerantIntake, { policy, profile })`, loaded before any `@deepseek-ai/dsh-mcp-client` row: every DSH
 * MCP client in the app lists tools tolerantly while this plugin is active (the patch is removed on dispose). Without
 * a server name in scope the diagnostics name the server by its command or URL; `TolerantMcpClient` names it.
 */
export const TolerantIntake = {
  name: 'dsh-harden-mcp-intake',
  async apply(ctx: Context, config?: TolerantIntakeConfig): Promise<void> {
    const settings = readConfig(config)
    const sdk = await loadMcpSdk()
    ctx.effect(
      () => installTolerantIntakeOn(sdk, { ...settings, onIntake: reporter(ctx) }),
      'dsh-harden: tolerant tools/list intake',
    )
  },
}

interface DshMcpClientModule {
  readonly Config: (config: unknown) => unknown
  readonly apply: (ctx: Context, config: unknown) => Promise<void>
}

/**
 * A drop-in for DSH's mcp-client row: same config (`transport`, `serverName`, …) plus `intake`; runs DSH's own
 * `apply` with tolerant intake installed and every diagnostic naming `serverName`.
 */
export const TolerantMcpClient = {
  name: 'mcp-client',
  inject: ['tools'],
  async apply(ctx: Context, config: { serverName?: unknown; intake?: TolerantIntakeConfig }): Promise<void> {
    const { intake, ...dshConfig } = config
    const settings = readConfig(intake)
    const dsh = (await import('@deepseek-ai/dsh-mcp-client')) as unknown as DshMcpClientModule
    const resolved = dsh.Config(dshConfig) as { serverName: string }
    const sdk = await loadMcpSdk()
    // Scoped: this row's options go to the clients this row's `apply` creates, and to no other row's.
    let installation: IntakeInstallation | undefined
    ctx.effect(() => {
      installation = installTolerantIntakeOn(sdk, { ...settings, scoped: true, onIntake: reporter(ctx) })
      return installation
    }, 'dsh-harden: tolerant tools/list intake')
    await installation!.run(resolved.serverName, () => dsh.apply(ctx, resolved))
  },
}
