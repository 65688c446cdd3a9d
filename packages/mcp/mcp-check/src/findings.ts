/**
 * The checks `mcp check` runs, in report order. Each id is stable: tests, regress rows and `--json` consumers match
 * on it. The seed-003 table maps onto `initialize`, `jsonrpc-envelope`, `error-codes`, `input-schema`,
 * `call-content` and `protocol-version`.
 */
export const CHECK_IDS = [
  'initialize',
  'protocol-version',
  'version-negotiation',
  'jsonrpc-envelope',
  'error-codes',
  'ping',
  'unknown-method',
  'tools-list',
  'input-schema',
  'output-schema',
  'call-content',
] as const

export type CheckId = (typeof CHECK_IDS)[number]

/** `violation` breaks a MUST of the spec (exit 1); `warning` is legal but hurts real clients; `note` is context. */
export type Severity = 'violation' | 'warning' | 'note'

export interface Finding {
  readonly check: CheckId
  readonly severity: Severity
  /** What the server did, in one sentence. */
  readonly message: string
  /** The tool it concerns, for per-tool checks. */
  readonly tool?: string | undefined
  /** A JSON pointer into the tool (`/inputSchema/type`) or into the response. */
  readonly pointer?: string | undefined
  /** The raw bytes that show it, clipped. */
  readonly evidence?: string | undefined
}

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip'

export interface CheckResult {
  readonly id: CheckId
  readonly title: string
  /** What the MCP spec requires, in one line. */
  readonly requirement: string
  readonly status: CheckStatus
  /** One line: what was observed. */
  readonly summary: string
  readonly findings: readonly Finding[]
}

export const CHECK_TITLES: Readonly<Record<CheckId, { title: string; requirement: string }>> = {
  initialize: {
    title: 'initialize handshake',
    requirement:
      'answer `initialize` first, with protocolVersion, capabilities and serverInfo {name, version}; clients send nothing else before it',
  },
  'protocol-version': {
    title: 'protocol version',
    requirement:
      'return a protocolVersion string the client supports (the one requested when the server supports it)',
  },
  'version-negotiation': {
    title: 'version negotiation',
    requirement:
      'asked for a version it does not support, answer with another version it supports, not an error',
  },
  'jsonrpc-envelope': {
    title: 'JSON-RPC 2.0 envelopes',
    requirement:
      'every response is {"jsonrpc":"2.0","id":<the request id>,"result"|"error"}, nothing else on stdout',
  },
  'error-codes': {
    title: 'integer error codes',
    requirement: 'error objects are {code: <integer>, message: <string>, data?}',
  },
  ping: { title: 'ping', requirement: '`ping` is answered promptly with an empty result {}' },
  'unknown-method': {
    title: 'unknown method',
    requirement: 'a method the server does not implement gets error -32601 (Method not found)',
  },
  'tools-list': {
    title: 'tools/list',
    requirement: 'result {tools: Tool[], nextCursor?}; every tool has a string name; names are unique',
  },
  'input-schema': {
    title: 'tool inputSchema',
    requirement:
      'every tool has inputSchema: a JSON Schema object with type "object", properties a map of schemas, required an array of strings',
  },
  'output-schema': {
    title: 'tool outputSchema',
    requirement: 'an outputSchema, when present, is a JSON Schema object with type "object"',
  },
  'call-content': {
    title: 'tools/call results',
    requirement:
      'result {content: ContentBlock[], structuredContent?, isError?}; tool failures are isError results or integer-coded errors',
  },
}
