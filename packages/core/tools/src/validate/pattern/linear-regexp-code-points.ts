/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges `[lo0, hi0, lo1, hi1, …]`, and the RE2
 * syntax for one code point of a set. Classes are computed here and written out range by range, so RE2's own `\s`,
 * `\w`, `.` and negation never decide a verdict.
 */
export type CodePoints = readonly number[]

const MAX_CODE_POINT = 0x10ffff

export function normalized(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = []
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!])
  pairs.sort((a, b) => a[0] - b[0])
  const merged: number[] = []
  for (const [lo, hi] of pairs) {
    const last = merged.length - 1
    if (last > 0 && lo <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, hi)
    else merged.push(lo, hi)
  }
  return merged
}

export function complement(set: CodePoints): number[] {
  const out: number[] = []
  let next = 0
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1)
    next = set[i + 1]! + 1
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT)
  return out
}

const DIGIT: CodePoints = [0x30, 0x39]
// Without the `i` flag, ECMAScript's word characters are ASCII only, also in `u` mode.
const WORD: CodePoints = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]
// ECMAScript's WhiteSpace (TAB, VT, FF, ZWNBSP, every Zs) and LineTerminator (LF, CR, LS, PS).
const SPACE: CodePoints = normalized([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
])
/** `.` without the `s` flag: any code point (lone surrogates too, in `u` mode) but a LineTerminator. */
export const DOT: CodePoints = complement([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029])

export const CLASS_ESCAPES: Readonly<Record<string, CodePoints>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
}

export const hex = (code: number): string => `\\x{${code.toString(16)}}`

/** RE2 syntax matching exactly one code point of `set` (RE2JS reads a string by code point, pairs joined). */
export function setSyntax(set: CodePoints): string {
  if (set.length === 0) return '[^\\x{0}-\\x{10ffff}]'
  if (set.length === 2 && set[0] === set[1]) return hex(set[0]!)
  let out = '['
  for (let i = 0; i < set.length; i += 2)
    out += set[i] === set[i + 1] ? hex(set[i]!) : `${hex(set[i]!)}-${hex(set[i + 1]!)}`
  return `${out}]`
}
