import type { Finding } from './findings.ts'
import { clip, type Exchange, isObject } from './wire/exchange.ts'

/**
 * One reply read two ways: strictly, as JSON-RPC 2.0 (what is wrong with its envelope and its error object), and
 * leniently, so the checker can keep going past a server that answers `{ok, data}` and report every other defect too.
 */
export interface ReadReply {
  /** `reply` when a message came back; otherwise how the request ended. */
  readonly kind: 'reply' | 'timeout' | 'closed' | 'transport-error'
  /** The result, read leniently (`result`, or `data` of an `{ok:true,data}` envelope). */
  readonly result?: unknown
  /** The error object, read leniently (`error`, whatever its shape). */
  readonly error?: { readonly code: unknown; readonly message: unknown; readonly data?: unknown } | undefined
  /** Envelope and error-code findings for this reply. */
  readonly findings: readonly Finding[]
  /** Evidence text: the reply (clipped), or what happened instead. */
  readonly evidence: string
  /** `timeout`/`closed`/`transport-error`: why nothing usable came back. */
  readonly detail?: string | undefined
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'result', 'error'])

export function readReply(exchange: Exchange): ReadReply {
  const { outcome } = exchange
  if (outcome.kind === 'timeout') {
    const detail = `no reply to ${exchange.method} within ${outcome.afterMs} ms`
    return { kind: 'timeout', findings: [], evidence: detail, detail }
  }
  if (outcome.kind !== 'reply') {
    return { kind: outcome.kind, findings: [], evidence: outcome.detail, detail: outcome.detail }
  }
  const evidence = clip(outcome.text)
  const message = outcome.message
  const findings: Finding[] = []
  if (!isObject(message)) {
    findings.push({
      check: 'jsonrpc-envelope',
      severity: 'violation',
      message: `${exchange.method}: the reply is ${Array.isArray(message) ? 'an array (a batch)' : `a JSON ${message === null ? 'null' : typeof message}`}, not a JSON-RPC response object`,
      evidence,
    })
    return { kind: 'reply', findings, evidence }
  }
  const problems: string[] = []
  if (message.jsonrpc !== '2.0')
    problems.push(
      message.jsonrpc === undefined
        ? 'no "jsonrpc":"2.0"'
        : `"jsonrpc" is ${JSON.stringify(message.jsonrpc)}`,
    )
  if (message.id === undefined) problems.push(`no "id" (the request's id was ${exchange.id})`)
  else if (message.id !== exchange.id)
    problems.push(`"id" is ${JSON.stringify(message.id)}, the request's id was ${exchange.id}`)
  const hasResult = Object.hasOwn(message, 'result')
  const hasError = Object.hasOwn(message, 'error')
  if (hasResult && hasError) problems.push('both "result" and "error"')
  if (!hasResult && !hasError) problems.push('neither "result" nor "error"')
  const foreign = Object.keys(message).filter((key) => !ENVELOPE_KEYS.has(key))
  if (foreign.length > 0) problems.push(`custom envelope keys ${foreign.map((k) => `"${k}"`).join(', ')}`)
  if (problems.length > 0) {
    findings.push({
      check: 'jsonrpc-envelope',
      severity: 'violation',
      message: `${exchange.method}: the reply is not a JSON-RPC 2.0 response: ${problems.join('; ')}`,
      evidence,
    })
  }

  // Lenient reading: `{ok:true,data}` carries its result in `data`, `{ok:false,error}` its error in `error`.
  let result: unknown
  if (hasResult) result = message.result
  else if (message.ok === true && Object.hasOwn(message, 'data')) result = message.data
  let error: ReadReply['error']
  if (hasError) {
    const raw = message.error
    error = isObject(raw)
      ? { code: raw.code, message: raw.message, data: raw.data }
      : { code: raw, message: raw }
    findings.push(...errorObjectFindings(exchange.method, raw, evidence))
  }
  return { kind: 'reply', result, error, findings, evidence }
}

function errorObjectFindings(method: string, raw: unknown, evidence: string): Finding[] {
  if (!isObject(raw)) {
    return [
      {
        check: 'error-codes',
        severity: 'violation',
        message: `${method}: "error" is ${JSON.stringify(raw)}, not an object {code, message}`,
        evidence,
      },
    ]
  }
  const findings: Finding[] = []
  if (!Number.isInteger(raw.code)) {
    findings.push({
      check: 'error-codes',
      severity: 'violation',
      message: `${method}: error code ${JSON.stringify(raw.code)} is not an integer; strict clients drop the reply, so the call times out instead of failing`,
      evidence,
    })
  }
  if (typeof raw.message !== 'string') {
    findings.push({
      check: 'error-codes',
      severity: 'violation',
      message: `${method}: error message ${JSON.stringify(raw.message)} is not a string`,
      evidence,
    })
  }
  return findings
}

/** `"code message"` of a leniently read error, for summaries. */
export function describeError(error: NonNullable<ReadReply['error']>): string {
  return `${JSON.stringify(error.code)} ${typeof error.message === 'string' ? error.message : JSON.stringify(error.message)}`
}
