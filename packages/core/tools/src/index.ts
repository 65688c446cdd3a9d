export { decoderNote } from './boundary/decoding.ts'
export {
  judgeMcpOutputSchema,
  judgeMcpSchema,
  type McpPolicy,
  type McpSchemaOptions,
  type OutputVerdict,
  type SchemaVerdict,
} from './boundary/mcp-schema.ts'
export { isPlainRecord, meetsMcpSchemaShape } from './boundary/mcp-shape.ts'
export {
  judgeMcpToolList,
  type McpSchemaRepair,
  type McpToolOptions,
  type McpToolProblem,
  type McpToolVerdict,
  type ToolSchemaKey,
} from './boundary/mcp-tool.ts'
export { projectForRoute, type RouteOutcome, type RouteProjection } from './boundary/route-projection.ts'
export { judgeRoute, type RouteVerdict } from './boundary/route-refusal.ts'
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
} from './boundary/route-verdict.ts'
export { ConflictingKeysError } from './contract/read-arguments.ts'
export { type ArgumentViolation, formatArgumentViolation, ToolArgsError } from './contract/tool-args-error.ts'
export {
  type ContractOptions,
  createToolContract,
  type ToolContract,
} from './contract/tool-contract.ts'
export type { FallbackValidator, ValidatorProblem } from './contract/validator-problem.ts'
export {
  type EnforceOptions,
  enforceToolParameters,
  type RepairReport,
  type RootContractMode,
} from './enforce.ts'
export { describeTool, JsonSchemaError, type ToolIdentity } from './errors.ts'
export { parsePointer, showPointer, toPointer } from './json-pointer.ts'
export type { JsonObject, JsonPrimitive, JsonValue } from './json-value.ts'
export { DEFAULT_LIMITS, type SizeLimits } from './limits.ts'
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
export { isRepairable, type RepairAttempt, repairParameters } from './repair.ts'
export { checkToolParameters, type RootContractResult } from './root-contract.ts'
export { checkSchemaShape } from './schema-shape.ts'
export { type SnapshotResult, snapshotJson } from './snapshot.ts'
export { formatViolation, type SchemaRule, type SchemaViolation } from './violation.ts'
export type { WorkKind, WorkMeter } from './work-meter.ts'
