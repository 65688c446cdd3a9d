export { type ChildEnvOptions, childEnvironment, DEFAULT_CHILD_ENV_NAMES } from './child-env.ts'
export { OVERSIZE_EDGE_BYTES } from './edges.ts'
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
export {
  arrayElements,
  memberValue,
  type Span,
  skipSpace,
  skipString,
  skipValue,
  toolsArraySpan,
} from './json-spans.ts'
export {
  LineSplitter,
  type LineSplitterOptions,
  lineText,
  MAX_MESSAGE_BYTES,
  type OversizeLine,
} from './lines.ts'
export {
  type EdgeMessage,
  edgeId,
  edgeMessage,
  type IdKey,
  idKey,
  type JsonRpcId,
  oversizeLineId,
  oversizeLineMessage,
} from './message-id.ts'
export {
  describeEarlyExit,
  describeSpawnError,
  STDERR_TAIL_CHARS,
  stderrTail,
} from './process-errors.ts'
export { eventDataHead, SseRewriter, type SseRewriterOptions } from './sse.ts'
export {
  CONNECTION_CLOSED,
  errorResponse,
  INTERNAL_ERROR,
  MAX_PENDING_REQUESTS,
  type PendingRequest,
  REQUEST_TIMEOUT,
  RequestTracker,
} from './tracker.ts'
