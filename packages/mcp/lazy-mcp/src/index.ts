export {
  CACHE_VERSION,
  type CachedServer,
  fingerprint,
  MetadataCache,
  resolveCachePath,
  SettingsStore,
  writeAtomic,
} from './cache.ts'
export { type GatewayClock, SYSTEM_CLOCK } from './clock.ts'
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_DISCONNECT_MS,
  type HttpServerConfig,
  type LazyMcpConfig,
  LazyMcpConfigError,
  LIFECYCLES,
  MAX_TIMER_DELAY_MS,
  MIN_IDLE_DISCONNECT_MS,
  parseConfig,
  parseListen,
  type ServerConfig,
  type ServerOverride,
  type StandardServerEntry,
  type StdioServerConfig,
} from './config.ts'
export { type CreatedGateway, type CreateGatewayOptions, createGateway } from './create.ts'
export { type Delivery, DeliveryError } from './delivery.ts'
export { childEnv } from './env.ts'
export {
  type GatewayLogger,
  type GatewayOptions,
  LazyMcpGateway,
  type ServerDetail,
  SILENT_LOGGER,
  type ToolListing,
} from './gateway.ts'
export {
  GATEWAY_TOOLS,
  GatewayArgumentsError,
  type GatewayTool,
  type ParametersSchema,
} from './gateway-tools.ts'
export {
  expandHome,
  expandVars,
  type ImportContext,
  type ResolvedServers,
  resolveServers,
  translateStandardEntry,
} from './import.ts'
export {
  activationOf,
  apply,
  type DshToolDefinition,
  inject,
  LazyMcp,
  type LazyMcpActivation,
  type LazyMcpContext,
  name,
  toDshTool,
} from './plugin.ts'
export { renderCallResult, renderContent, renderResourceContents } from './render.ts'
export { type SearchCatalog, type SearchHit, searchCatalogs } from './search.ts'
export {
  DEFAULT_PANEL_DIR,
  type ExtraRoute,
  PANEL_PREFIX,
  STATE_PATH,
  STATUS_BODY_LIMIT,
  type StatusServer,
  type StatusServerOptions,
  startStatusServer,
} from './status-server.ts'
export type {
  ConnectionState,
  GatewayStatusSnapshot,
  GatewayStatusSource,
  Lifecycle,
  ServerStatus,
} from './status-types.ts'
export {
  readGatewayConfigFile,
  type StdioGateway,
  type StdioGatewayOptions,
  serveGatewayOverStdio,
} from './stdio-server.ts'
export { GroupStdioTransport, processGroupAlive } from './stdio-transport.ts'
