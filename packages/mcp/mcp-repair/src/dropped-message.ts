import type { PendingRequest } from '@dsh-harden/mcp-transport'

/**
 * Words for the log when the upstream writes a message the proxy cannot forward or read (a line that is not JSON, a
 * line or event over the size limit), shared by the stdio proxy and the HTTP facade.
 */

/** How much of such a message a log line quotes (the message itself may be megabytes). */
const EXCERPT_CHARS = 80

/** The message's first characters, without its line end, as a JSON string. */
export function excerpt(text: string): string {
  const start = text.slice(0, EXCERPT_CHARS + 2).replace(/\r?\n$/, '')
  return JSON.stringify(start.length > EXCERPT_CHARS ? `${start.slice(0, EXCERPT_CHARS)}…` : start)
}

/** `tools/list (id 3)`. */
export function namedRequest(request: PendingRequest): string {
  return `${request.method} (id ${JSON.stringify(request.id)})`
}

/** Why a message that names a pending request but does not answer it leaves the request alone. */
export function namesButDoesNotAnswer(request: PendingRequest): string {
  return `naming the pending ${namedRequest(request)} but not an answer to it`
}

export const STILL_WAITS = 'the request still waits for its answer'
