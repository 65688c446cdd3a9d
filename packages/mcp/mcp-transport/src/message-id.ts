import { OVERSIZE_EDGE_BYTES } from './edges.ts'
import { skipSpace, skipString, skipValue } from './json-spans.ts'
import type { OversizeLine } from './lines.ts'

/**
 * The JSON-RPC `id` of a message we hold only the edges of: a line or event dropped for its size (its first and last
 * {@link OVERSIZE_EDGE_BYTES}), or a line that is not JSON. The one id recovery of this repo: the repair proxy, the
 * lazy-mcp gateway's two sides and `mcp check` all answer a dropped message through it.
 *
 * The two edges are read apart, never spliced together: a value cut at the edge is no value (a string that starts in
 * the head and ends in the tail spliced into "bad JSON" that `JSON.parse` threw on, and the gateway died of it). Only
 * the top-level `id` counts, read where it can be read exactly: forwards from the message's first byte (hand-written
 * servers put `id` first) and backwards from its last `}` (the SDKs put `id` last). An `"id"` inside `params` or
 * `result` is never taken for the message's own. Each edge is read once, so the work is at most
 * 2 × {@link OVERSIZE_EDGE_BYTES} characters per message, whatever its size; it never throws.
 *
 * An id says whose message it is, not that it is an answer: a server that logs `debug: got <request>` to stdout
 * writes a line ending in `"id":3}` before it answers request 3. Only a message that reads as a response from its
 * first byte (`isResponse`) may be answered in the server's place; for any other, the request may still be answered.
 */

/** A JSON-RPC request id (`null` ids are never answered, so never recovered). */
export type JsonRpcId = string | number

/** A JSON-RPC id as a map key (`1` and `"1"` are different requests). */
export type IdKey = string

export function idKey(id: unknown): IdKey | undefined {
  if (typeof id === 'number') return `n:${id}`
  if (typeof id === 'string') return `s:${id}`
  return undefined
}

const NUMBER_TOKEN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const HEX4 = /^[0-9a-fA-F]{4}$/

/** Whether `token` is a whole JSON string (no raw control character, every escape valid): then decoding cannot throw. */
function isJsonString(token: string): boolean {
  if (token.length < 2 || token[0] !== '"' || token[token.length - 1] !== '"') return false
  for (let i = 1; i < token.length - 1; i++) {
    const char = token[i]!
    if (char === '"' || char.charCodeAt(0) < 0x20) return false
    if (char !== '\\') continue
    const escaped = token[++i]
    if (escaped === 'u' && HEX4.test(token.slice(i + 1, i + 5))) i += 4
    else if (escaped === undefined || !ESCAPES.has(escaped) || i === token.length - 1) return false
  }
  return true
}

/** A number or string token as an id; anything else (object, `null`, a malformed or cut token) is no id. */
function decodeId(token: string): JsonRpcId | undefined {
  if (NUMBER_TOKEN.test(token)) return Number(token)
  if (isJsonString(token)) return JSON.parse(token) as string
  return undefined
}

/** What the head of a message says, read forwards from its first byte. */
interface Leading {
  /** The first top-level `id` member's value, when it is a whole number or string. */
  readonly id: JsonRpcId | undefined
  /** A top-level `result` or `error` member began and no `method` member came before the head ended. */
  readonly response: boolean
}

/**
 * The head read forwards, member by member, each value skipped whole (a nested `"id"` is inside a skipped value),
 * up to the first thing that is not a member or that the head cuts.
 */
function leadingMembers(head: string): Leading {
  let id: JsonRpcId | undefined
  let idSeen = false
  let answerKey = false
  let method = false
  const read = (): Leading => ({ id, response: answerKey && !method })
  let i = skipSpace(head, 0)
  if (head.charCodeAt(i) !== 0x7b) return read()
  for (;;) {
    i = skipSpace(head, i + 1)
    if (head.charCodeAt(i) !== 0x22) return read()
    const keyEnd = skipString(head, i)
    if (keyEnd === -1) return read()
    const key = head.slice(i, keyEnd)
    i = skipSpace(head, keyEnd)
    if (head.charCodeAt(i) !== 0x3a) return read()
    if (key === '"result"' || key === '"error"') answerKey = true
    else if (key === '"method"') method = true
    const valueStart = skipSpace(head, i + 1)
    if (valueStart === head.length) return read()
    const valueEnd = skipValue(head, valueStart)
    if (valueEnd === -1) return read()
    if (key === '"id"' && !idSeen) {
      idSeen = true
      id = decodeId(head.slice(valueStart, valueEnd))
    }
    i = skipSpace(head, valueEnd)
    if (head.charCodeAt(i) !== 0x2c) return read()
  }
}

/** Characters a JSON number is written with, for reading one backwards. */
function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x65 ||
    code === 0x45
  )
}

/**
 * The top-level `id` read backwards from the last byte: the message's last member, when it is `"id": <value>`
 * directly before the closing `}`. A string is delimited by its first unescaped quote counting back; a run of
 * backslashes that reaches the tail's cut edge leaves that unknown, so it is no id.
 */
function trailingId(tail: string): JsonRpcId | undefined {
  let i = tail.length - 1
  while (i >= 0 && isSpace(tail.charCodeAt(i))) i--
  if (tail.charCodeAt(i) !== 0x7d) return undefined
  i--
  while (i >= 0 && isSpace(tail.charCodeAt(i))) i--
  const valueEnd = i + 1
  let valueStart: number
  if (tail.charCodeAt(i) === 0x22) {
    let open = -1
    for (let k = i - 1; k >= 0 && open === -1; k--) {
      if (tail.charCodeAt(k) !== 0x22) continue
      let slashes = 0
      let j = k - 1
      while (j >= 0 && tail.charCodeAt(j) === 0x5c) {
        slashes++
        j--
      }
      if (j < 0 && slashes > 0) return undefined
      if (slashes % 2 === 0) open = k
    }
    if (open === -1) return undefined
    valueStart = open
  } else {
    valueStart = valueEnd
    while (valueStart > 0 && isNumberChar(tail.charCodeAt(valueStart - 1))) valueStart--
    if (valueStart === valueEnd) return undefined
  }
  i = valueStart - 1
  while (i >= 0 && isSpace(tail.charCodeAt(i))) i--
  if (tail.charCodeAt(i) !== 0x3a) return undefined
  i--
  while (i >= 0 && isSpace(tail.charCodeAt(i))) i--
  if (i < 4 || tail.slice(i - 3, i + 1) !== '"id"') return undefined
  i -= 4
  while (i >= 0 && isSpace(tail.charCodeAt(i))) i--
  const before = tail.charCodeAt(i)
  if (before !== 0x2c && before !== 0x7b) return undefined
  return decodeId(tail.slice(valueStart, valueEnd))
}

/** What the edges of a dropped message say about it. */
export interface EdgeMessage {
  /** Its top-level `id`, read exactly from either edge (undefined when neither names it or the two disagree). */
  readonly id: JsonRpcId | undefined
  /**
   * Whether it reads as a JSON-RPC response from its first byte: an object whose top-level members, read forwards,
   * reach `result` or `error` with no `method` before. A line that does not open as an object (a debug line that ends
   * in the request it echoes) or that reads as a request is not an answer, whatever its end looks like.
   */
  readonly isResponse: boolean
}

/**
 * What the message whose first characters are `head` and last are `tail` says (each trimmed to
 * {@link OVERSIZE_EDGE_BYTES}; a short message may pass its whole text as both). Reads each edge once.
 */
export function edgeMessage(head: string, tail: string): EdgeMessage {
  const leading = leadingMembers(head.slice(0, OVERSIZE_EDGE_BYTES))
  const last = trailingId(tail.slice(-OVERSIZE_EDGE_BYTES))
  const first = leading.id
  const id = first === undefined ? last : last === undefined || last === first ? first : undefined
  return { id, isResponse: leading.response && id !== undefined }
}

/** The top-level `id` of a message held by its edges (see {@link edgeMessage}). */
export function edgeId(head: string, tail: string): JsonRpcId | undefined {
  return edgeMessage(head, tail).id
}

/** What a line the {@link LineSplitter} dropped for its size says, by its kept edges. */
export function oversizeLineMessage(line: OversizeLine): EdgeMessage {
  return edgeMessage(line.head.toString('utf8'), line.tail.toString('utf8'))
}

/** The top-level `id` of a line the {@link LineSplitter} dropped for its size. */
export function oversizeLineId(line: OversizeLine): JsonRpcId | undefined {
  return oversizeLineMessage(line).id
}
