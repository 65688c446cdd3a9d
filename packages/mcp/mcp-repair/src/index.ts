export { type HttpRepair, type HttpRepairOptions, startHttpRepair } from './http-facade.ts'
export { arrayElements, memberValue, type Span, skipValue, toolsArraySpan } from './json-spans.ts'
export {
  describeRepair,
  type IdKey,
  idKey,
  type ResponseRepair,
  type RewriteOutcome,
  rewriteToolsListText,
} from './rewrite.ts'
export { type StdioRepair, type StdioRepairOptions, startStdioRepair } from './stdio-proxy.ts'
export { type PendingRequest, RequestTracker } from './tracker.ts'
