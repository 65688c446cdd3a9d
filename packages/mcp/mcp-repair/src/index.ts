// The CLI imports these two through here only until it depends on `@dsh-harden/mcp-transport`, which owns them (its
// package.json lacks that dependency, and the lockfile is not this package's to change); then drop this line.
export { describeSpawnError, NonLoopbackListenError } from '@dsh-harden/mcp-transport'
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
