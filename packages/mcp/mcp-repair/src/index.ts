export { type ChildEnvOptions, childEnvironment, DEFAULT_CHILD_ENV_NAMES } from './child-env.ts'
export { type HttpRepair, type HttpRepairOptions, startHttpRepair } from './http-facade.ts'
export {
  bearerToken,
  checkListenAddress,
  cookieValue,
  type HostAllowList,
  hostAllowList,
  isLoopbackHost,
  NonLoopbackListenError,
  newAccessToken,
  refuseByHeaders,
  tokenMatches,
} from './http-guard.ts'
export { arrayElements, memberValue, type Span, skipValue, toolsArraySpan } from './json-spans.ts'
export {
  LineSplitter,
  type LineSplitterOptions,
  MAX_MESSAGE_BYTES,
  OVERSIZE_EDGE_BYTES,
  type OversizeLine,
  oversizeText,
} from './lines.ts'
export {
  describeEarlyExit,
  describeSpawnError,
  STDERR_TAIL_CHARS,
  stderrTail,
} from './process-errors.ts'
export {
  describeRepair,
  type IdKey,
  idKey,
  type ResponseRepair,
  type RewriteOutcome,
  rewriteToolsListText,
} from './rewrite.ts'
export { SseRewriter, type SseRewriterOptions } from './sse.ts'
export { type StdioRepair, type StdioRepairOptions, startStdioRepair } from './stdio-proxy.ts'
export { errorResponse, idOfMalformed, type PendingRequest, RequestTracker } from './tracker.ts'
