import { type CodePoints, normalized } from './linear-regexp-code-points.ts'

/** Every code point but the surrogates, in order (apart, a lone lead and a lone trail would join into a pair). */
function everyCodePoint(): string {
  const units = new Uint16Array(0xd800 + (0x10000 - 0xe000) + 2 * 0x100000)
  let at = 0
  for (let code = 0; code < 0xd800; code++) units[at++] = code
  for (let code = 0xe000; code < 0x10000; code++) units[at++] = code
  for (let lead = 0xd800; lead < 0xdc00; lead++)
    for (let trail = 0xdc00; trail < 0xe000; trail++) {
      units[at++] = lead
      units[at++] = trail
    }
  return new TextDecoder('utf-16le').decode(units)
}

const propertySets = new Map<string, CodePoints>()
const PROPERTY_SETS_KEPT = 64

/**
 * The code points of a property escape (`\p{L}`, `\P{Script=Greek}`) exactly as this process's ECMAScript has
 * them, read from V8 itself (its Unicode version, not RE2's tables): one V8 search over every code point, 10-70 ms
 * once, by a pattern built here that cannot backtrack. Memoized per escape text.
 */
export function propertyCodePoints(property: string): CodePoints {
  const known = propertySets.get(property)
  if (known !== undefined) return known
  const ranges: number[] = []
  const text = everyCodePoint()
  for (const run of text.matchAll(new RegExp(`${property}+`, 'gu'))) {
    const end = run.index + run[0].length
    const first = run[0].codePointAt(0)!
    const lastUnit = text.charCodeAt(end - 1)
    const last = text.codePointAt(end - (lastUnit >= 0xdc00 && lastUnit < 0xe000 ? 2 : 1))!
    // A run over U+D7FF and U+E000 does not take the surrogates between them (they are tested apart below).
    if (first < 0xd800 && last >= 0xe000) ranges.push(first, 0xd7ff, 0xe000, last)
    else ranges.push(first, last)
  }
  const single = new RegExp(`^${property}$`, 'u')
  for (let code = 0xd800; code < 0xe000; code++)
    if (single.test(String.fromCharCode(code))) ranges.push(code, code)
  const set = normalized(ranges)
  if (propertySets.size >= PROPERTY_SETS_KEPT) propertySets.delete(propertySets.keys().next().value!)
  propertySets.set(property, set)
  return set
}
