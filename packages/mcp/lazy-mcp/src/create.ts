import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { resolveCachePath } from './cache.ts'
import type { GatewayClock } from './clock.ts'
import { type LazyMcpConfig, parseConfig } from './config.ts'
import { type GatewayLogger, LazyMcpGateway, SILENT_LOGGER } from './gateway.ts'
import { expandHome, type ImportContext, resolveServers } from './import.ts'

export interface CreateGatewayOptions {
  /** Variables for `${VAR}` expansion, the cache-path fallback and the parent env of stdio servers. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  readonly home?: string | undefined
  /** Base for relative `configPaths`. Default `process.cwd()`. */
  readonly cwd?: string | undefined
  readonly logger?: GatewayLogger | undefined
  readonly readFile?: ImportContext['readFile']
  /** Where the configuration came from (a file path), named in the "no servers configured" warning. */
  readonly where?: string | undefined
  /** Start eager / keep-alive servers (in the background). Default true. */
  readonly start?: boolean | undefined
  /** What idle release and timestamps run on. Default the system clock. */
  readonly clock?: GatewayClock | undefined
}

export interface CreatedGateway {
  readonly gateway: LazyMcpGateway
  /** The validated configuration. */
  readonly config: LazyMcpConfig
  /** Tolerated import problems, also sent to the logger. */
  readonly warnings: readonly string[]
}

/**
 * Validates `raw` (the native configuration), imports every `mcpServers` source with its precedence, and builds a
 * started gateway. Throws a `LazyMcpConfigError` naming the exact path for anything broken; a missing import file
 * is only a warning. No server is started unless its lifecycle is `eager` or `keep-alive` (and then in the
 * background).
 */
export async function createGateway(
  raw: unknown,
  options: CreateGatewayOptions = {},
): Promise<CreatedGateway> {
  const config = parseConfig(raw)
  const env = options.env ?? process.env
  const home = options.home ?? homedir()
  const logger = options.logger ?? SILENT_LOGGER
  const cwd = options.cwd ?? process.cwd()
  const resolved = await resolveServers(config, {
    env,
    home,
    cwd,
    readFile: options.readFile,
  })
  const warnings = [...resolved.warnings]
  if (resolved.servers.length === 0)
    warnings.push(
      `no servers configured in ${options.where ?? 'the configuration'}; add \`mcpServers\` (a map of name → { command | url }), \`servers\` or \`configPaths\``,
    )
  for (const warning of warnings) logger.warn(`lazy-mcp: ${warning}`)
  // The gateway-wide passEnv comes first; a server's own list adds to it.
  const servers = resolved.servers.map((server) =>
    server.transport === 'stdio' && config.passEnv !== undefined
      ? { ...server, passEnv: [...config.passEnv, ...(server.passEnv ?? [])] }
      : server,
  )
  const gateway = new LazyMcpGateway({
    servers,
    cachePath: resolveCachePath(
      config.cachePath === undefined ? undefined : resolve(cwd, expandHome(config.cachePath, home)),
      env,
      home,
    ),
    idleDisconnectMs: config.idleDisconnectMs,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    parentEnv: env,
    logger,
    clock: options.clock,
  })
  if (options.start !== false) await gateway.start()
  return { gateway, config, warnings }
}
