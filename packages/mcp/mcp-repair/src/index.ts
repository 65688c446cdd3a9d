export { type HttpRepair, type HttpRepairOptions, startHttpRepair } from './http-facade.ts'
export {
  describeRepair,
  type ResponseRepair,
  type RewriteOutcome,
  rewriteToolsListText,
} from './rewrite.ts'
export {
  answersText,
  type OpenRoute,
  type Outbound,
  type RouteProfile,
  type ServedPage,
  type ToolRoute,
} from './route.ts'
export { type StdioRepair, type StdioRepairOptions, startStdioRepair } from './stdio-proxy.ts'
