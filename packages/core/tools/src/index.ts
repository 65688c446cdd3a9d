export { describeTool, JsonSchemaError, type ToolIdentity } from './check/errors.ts'
export { checkToolParameters, type RootContractResult } from './check/root-contract.ts'
export { checkSchemaShape } from './check/schema-shape.ts'
export { type SnapshotResult, snapshotJson } from './check/snapshot.ts'
export { formatViolation, type SchemaRule, type SchemaViolation } from './check/violation.ts'
export {
  type ContractOptions,
  createToolContract,
  type ToolContract,
} from './contract/tool-contract.ts'
export { parsePointer, showPointer, toPointer } from './json/json-pointer.ts'
export type { JsonObject, JsonPrimitive, JsonValue } from './json/json-value.ts'
export { DEFAULT_LIMITS, type SizeLimits } from './json/limits.ts'
export { isPlainRecord } from './json/plain-data.ts'
export type { WorkKind, WorkMeter } from './json/work-meter.ts'
export { decoderNote } from './mcp/decoding.ts'
export {
  judgeMcpOutputSchema,
  judgeMcpSchema,
  type McpPolicy,
  type McpSchemaOptions,
  type OutputVerdict,
  type SchemaVerdict,
} from './mcp/mcp-schema.ts'
export { meetsMcpSchemaShape } from './mcp/mcp-shape.ts'
export {
  judgeMcpToolList,
  type McpSchemaRepair,
  type McpToolOptions,
  type McpToolProblem,
  type McpToolVerdict,
  type ToolSchemaKey,
} from './mcp/mcp-tool.ts'
export { projectForRoute, type RouteOutcome, type RouteProjection } from './mcp/route-projection.ts'
export { judgeRoute, type RouteVerdict } from './mcp/route-refusal.ts'
export {
  REASONS_SHOWN,
  ROUTE_VERDICT_TEXT,
  type StockRouteVerdict,
  type StockRouteVerdictKind,
  showChange,
  stockRouteVerdict,
  type ToolRouteVerdict,
  type ToolRouteVerdictKind,
  toolRouteVerdict,
} from './mcp/route-verdict.ts'
export { type ProjectionOptions, projectParameters } from './projection/index.ts'
export { meetsName, type NameRule, type Renames, renameAll } from './projection/names.ts'
export { checkProfileContract } from './projection/profile-contract.ts'
export { PROFILES, type ProfileRules, profileRules } from './projection/profiles.ts'
export { type RegexFeature, regexFeatures } from './projection/regex-features.ts'
export {
  type ModelRoute,
  type Placement,
  PROVIDER_KEYS,
  placeRoute,
  profileForProviderKey,
  profileForRoute,
  type RouteFacts,
  type RoutePlacement,
} from './projection/routes.ts'
export {
  type Decoder,
  PROFILE_IDS,
  type ProfileId,
  type Projection,
  type ProjectionChange,
} from './projection/types.ts'
export { ConflictingKeysError } from './read/read-arguments.ts'
export { type ArgumentViolation, formatArgumentViolation, ToolArgsError } from './read/tool-args-error.ts'
export {
  type EnforceOptions,
  enforceToolParameters,
  type RepairReport,
  type RootContractMode,
} from './repair/enforce.ts'
export { isRepairable, type RepairAttempt, repairParameters } from './repair/repair.ts'
export type { FallbackValidator, ValidatorProblem } from './validate/validator-problem.ts'
