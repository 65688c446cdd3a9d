/**
 * Positions inside JSON text, found in one forward pass without building values: the repair proxy's rewrite reads
 * text `JSON.parse` has already accepted (to splice new text in for the tools that change and copy every other byte
 * from the original); id recovery (`message-id.ts`) reads the cut edges of a dropped message, where a value may run
 * past the end, which the `skip*` functions report as -1. Positions are UTF-16 offsets into the string.
 */
export interface Span {
  readonly start: number
  readonly end: number
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

export function skipSpace(text: string, at: number): number {
  let i = at
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** The end of the string opening at `at`, or -1 when the text ends inside it. */
export function skipString(text: string, at: number): number {
  let i = at + 1
  for (;;) {
    const quote = text.indexOf('"', i)
    if (quote === -1) return -1
    let slashes = 0
    for (let k = quote - 1; text.charCodeAt(k) === 0x5c; k--) slashes++
    if (slashes % 2 === 0) return quote + 1
    i = quote + 1
  }
}

/**
 * The end of the JSON value starting at `at` (which must not be whitespace), or -1 when the text ends inside it (a
 * bare number or literal is only known to be whole when something follows it).
 */
export function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at)
  if (first === 0x22) return skipString(text, at)
  if (first !== 0x7b && first !== 0x5b) {
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c === 0x2c || c === 0x5d || c === 0x7d || isSpace(c)) return i
    }
    return -1
  }
  let depth = 0
  let i = at
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      i = skipString(text, i)
      if (i === -1) return -1
      continue
    }
    if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      depth--
      if (depth === 0) return i + 1
    }
    i++
  }
  return -1
}

/** Spans of the elements of the array starting at `at`. */
export function arrayElements(text: string, at: number): Span[] {
  const spans: Span[] = []
  let i = skipSpace(text, at + 1)
  if (text.charCodeAt(i) === 0x5d) return spans
  for (;;) {
    const end = skipValue(text, i)
    spans.push({ start: i, end })
    i = skipSpace(text, end)
    if (text.charCodeAt(i) !== 0x2c) return spans
    i = skipSpace(text, i + 1)
  }
}

/** The span of member `key`'s value in the object starting at `at` (the last one, as `JSON.parse` keeps). */
export function memberValue(text: string, at: number, key: string): Span | undefined {
  let found: Span | undefined
  let i = skipSpace(text, at + 1)
  if (text.charCodeAt(i) === 0x7d) return undefined
  for (;;) {
    const keyEnd = skipString(text, i)
    const name = JSON.parse(text.slice(i, keyEnd)) as string
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1)
    const valueEnd = skipValue(text, valueStart)
    if (name === key) found = { start: valueStart, end: valueEnd }
    i = skipSpace(text, valueEnd)
    if (text.charCodeAt(i) !== 0x2c) return found
    i = skipSpace(text, i + 1)
  }
}

/** The span of `result.tools` in the JSON-RPC response object starting at `at`. */
export function toolsArraySpan(text: string, at: number): Span | undefined {
  const result = memberValue(text, at, 'result')
  if (result === undefined || text.charCodeAt(result.start) !== 0x7b) return undefined
  const tools = memberValue(text, result.start, 'tools')
  return tools !== undefined && text.charCodeAt(tools.start) === 0x5b ? tools : undefined
}
