import { createRequire } from 'node:module'
import type { RegExpEngine } from 'ajv/dist/types/index.js'
import type { RE2JS } from 're2js'

type Re2js = typeof import('re2js')
let re2js: Re2js | undefined

/** re2js, loaded by the first pattern compiled: about 40 ms of CPU at every DSH start otherwise, for no pattern run. */
function loadRe2js(): Re2js {
  re2js ??= createRequire(import.meta.url)('re2js') as Re2js
  return re2js
}

/**
 * The regex engine ajv uses for every `pattern` and `patternProperties` key of a declared schema (ajv's
 * `code.regExp` hook): RE2JS, a pure-JS port of RE2, which matches by automaton in time linear in the input. A
 * foreign schema's pattern is untrusted input and so are the strings a model sends; with the backtracking engine of
 * `new RegExp` one pattern such as `^(a|a)*$` can freeze the process (DSH's own validator never evaluates `pattern`).
 *
 * JSON Schema patterns are ECMA-262 regexes and ajv builds them with the `u` flag, so every pattern is translated
 * here into RE2 syntax that means exactly what `new RegExp(pattern, 'u')` means, construct by construct. What has no
 * exact translation (lookaround, backreferences, …) or is not a valid `u`-mode regex is never run on the
 * backtracking engine, never run with another meaning and never silently skipped: it compiles to a matcher that
 * throws `UnsupportedPatternError`, which the validator turns into a refusal naming the pattern, and
 * `findUnsupportedPatterns` reports it when the validator is compiled.
 */
export class UnsupportedPatternError extends Error {
  override readonly name = 'UnsupportedPatternError'
  readonly pattern: string
  /** What the pattern uses, in words a schema author can act on. */
  readonly construct: string
  /** How to rewrite the pattern so that it runs. */
  readonly hint: string

  constructor(pattern: string, construct: string, hint: string) {
    super(
      `pattern ${JSON.stringify(pattern)} cannot run on the linear-time regex engine (RE2) with ECMAScript's meaning: it uses ${construct}; ${hint}`,
    )
    this.pattern = pattern
    this.construct = construct
    this.hint = hint
  }
}

/** A construct the translation refuses, before the pattern text is known. */
interface Refusal {
  readonly construct: string
  readonly hint: string
}

/** The budget of RE2 syntax one pattern may become, so a hostile pattern cannot build a huge program. */
const MAX_TRANSLATED_LENGTH = 1 << 18

const LOOKAROUND: Refusal = {
  construct: 'lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`)',
  hint: 'rewrite the pattern without lookaround',
}
const BACKREFERENCE: Refusal = {
  construct: 'a backreference (`\\1`, `\\k<name>`)',
  hint: 'rewrite the pattern without backreferences',
}
const MODIFIER_GROUP: Refusal = {
  construct: 'an inline modifier group (`(?i:…)`, `(?-m:…)`)',
  hint: 'write the group without flags (e.g. `[Aa]` for a case-insensitive `a`)',
}
const LARGE_COUNT: Refusal = {
  construct: 'a repetition count above 1000 (RE2 expands `{n,m}` and stops at 1000)',
  hint: 'use a count of at most 1000, or `*` / `+` with `maxLength` on the string',
}
const TOO_LARGE: Refusal = {
  construct: `more than ${MAX_TRANSLATED_LENGTH} characters of RE2 syntax once each character class is written out`,
  hint: 'use fewer or smaller character classes (`\\s`, `\\S`, `\\p{…}`, `.` and negated classes are long written out)',
}

const EMPTY_NON_BOUNDARY: Refusal = {
  construct:
    'a `\\B` through which the pattern matches an empty string (V8 also finds that empty match between the two halves of a surrogate pair, where the ECMAScript specification and RE2 do not)',
  hint: 'make the pattern consume at least one character next to `\\B`',
}

function invalidInUnicodeMode(detail: string): Refusal {
  return {
    construct: `syntax that ECMAScript rejects in Unicode mode (the \`u\` flag JSON Schema validators use): ${detail}`,
    hint: 'escape only syntax characters (`\\-` only inside `[…]`) and write a literal `{`, `}` or `]` as `\\{`, `\\}`, `\\]`',
  }
}

function rejectedByRe2(detail: string): Refusal {
  if (detail.startsWith('invalid repeat count'))
    return {
      construct: `nested repetition counts whose product is above 1000, RE2's limit (${detail})`,
      hint: 'use smaller counts, or `*` / `+` with `maxLength` on the string',
    }
  return {
    construct: `a structure RE2 does not compile (${detail})`,
    hint: 'nest fewer groups and use smaller repetition counts',
  }
}

/** Thrown inside a translation to stop it: the one refusal the pattern gets. */
class Refused {
  readonly refusal: Refusal
  constructor(refusal: Refusal) {
    this.refusal = refusal
  }
}

/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges `[lo0, hi0, lo1, hi1, …]`. Classes are
 * computed here and written out range by range, so RE2's own `\s`, `\w`, `.` and negation never decide a verdict.
 */
type CodePoints = readonly number[]

const MAX_CODE_POINT = 0x10ffff

function normalized(ranges: readonly number[]): number[] {
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

function complement(set: CodePoints): number[] {
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
// `.` without the `s` flag: any code point (lone surrogates too, in `u` mode) but a LineTerminator.
const DOT: CodePoints = complement([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029])

const CLASS_ESCAPES: Readonly<Record<string, CodePoints>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
}

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
function propertyCodePoints(property: string): CodePoints {
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

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b }

const hex = (code: number): string => `\\x{${code.toString(16)}}`

/** RE2 syntax matching exactly one code point of `set` (RE2JS reads a string by code point, pairs joined). */
function setSyntax(set: CodePoints): string {
  if (set.length === 0) return '[^\\x{0}-\\x{10ffff}]'
  if (set.length === 2 && set[0] === set[1]) return hex(set[0]!)
  let out = '['
  for (let i = 0; i < set.length; i += 2)
    out += set[i] === set[i + 1] ? hex(set[i]!) : `${hex(set[i]!)}-${hex(set[i + 1]!)}`
  return `${out}]`
}

/** What each ECMAScript assertion becomes in RE2 syntax. */
interface Assertions {
  readonly '^': string
  readonly $: string
  readonly b: string
  readonly B: string
}

const NEVER = setSyntax([])

/** Without the `m` flag `^` and `$` are the ends of the input only (not before a final line terminator); RE2's
 * `\b` is ASCII, a boundary between exactly ECMAScript's word characters and the rest. */
const EXACT: Assertions = { '^': '\\A', $: '\\z', b: '\\b', B: '\\B' }

/** The assertions as they hold between the two halves of a surrogate pair: no end, no word on either side. */
const betweenPairHalves = (nonBoundary: string): Assertions => ({
  '^': NEVER,
  $: NEVER,
  b: NEVER,
  B: nonBoundary,
})

const isAsciiAlphanumeric = (char: string): boolean =>
  (char >= '0' && char <= '9') || (char >= 'A' && char <= 'Z') || (char >= 'a' && char <= 'z')

/**
 * Reads a `u`-mode pattern that V8 has already accepted, left to right in one pass (no recursion: groups map to
 * groups), and writes RE2 syntax with the same meaning for `test`. Captures and laziness do not change whether a
 * match exists, so every group becomes `(?:…)` and lazy quantifiers become greedy.
 */
class Translation {
  private readonly source: string
  private readonly assertions: Assertions
  private at = 0
  private out = ''
  /** Whether the pattern has a `\B` (see `matchesEmptyOnlyInsidePairs`). */
  usesNonBoundary = false

  constructor(source: string, assertions: Assertions) {
    this.source = source
    this.assertions = assertions
  }

  run(): string | Refusal {
    try {
      while (this.at < this.source.length) {
        this.term()
        if (this.out.length > MAX_TRANSLATED_LENGTH) return TOO_LARGE
      }
    } catch (error) {
      if (error instanceof Refused) return error.refusal
      throw error
    }
    return this.out === '' ? '(?:)' : this.out
  }

  private term(): void {
    const char = this.source[this.at]!
    switch (char) {
      case '|':
      case ')':
        this.out += char
        this.at++
        return
      case '(':
        this.group()
        return
      case '^':
      case '$':
        this.out += this.assertions[char]
        this.at++
        return
      case '.':
        this.out += setSyntax(DOT)
        this.at++
        return
      case '*':
      case '+':
      case '?':
        this.out += char
        this.at++
        this.skipLazy()
        return
      case '{':
        this.counted()
        return
      case '[':
        this.characterClass()
        return
      case '\\':
        this.atomEscape()
        return
      default: {
        const code = this.source.codePointAt(this.at)!
        this.out += isAsciiAlphanumeric(char) ? char : hex(code)
        this.at += code > 0xffff ? 2 : 1
      }
    }
  }

  private group(): void {
    const { source } = this
    this.out += '(?:' // the name or number of a group is irrelevant to whether the pattern matches
    if (source[this.at + 1] !== '?') {
      this.at++
      return
    }
    const kind = source[this.at + 2]
    if (kind === ':') {
      this.at += 3
      return
    }
    if (kind === '=' || kind === '!') throw new Refused(LOOKAROUND)
    if (kind !== '<') throw new Refused(MODIFIER_GROUP)
    const after = source[this.at + 3]
    if (after === '=' || after === '!') throw new Refused(LOOKAROUND)
    this.at = source.indexOf('>', this.at) + 1
  }

  private counted(): void {
    const close = this.source.indexOf('}', this.at)
    const counts = this.source
      .slice(this.at + 1, close)
      .split(',')
      .map((bound) => (bound === '' ? '' : String(Number(bound))))
    if (counts.some((count) => count !== '' && Number(count) > 1000)) throw new Refused(LARGE_COUNT)
    this.out += `{${counts.join(',')}}`
    this.at = close + 1
    this.skipLazy()
  }

  private skipLazy(): void {
    if (this.source[this.at] === '?') this.at++
  }

  private atomEscape(): void {
    const next = this.source[this.at + 1]!
    if (next === 'b' || next === 'B') {
      this.out += this.assertions[next]
      this.usesNonBoundary ||= next === 'B'
      this.at += 2
      return
    }
    if (next === 'k' || (next >= '1' && next <= '9')) throw new Refused(BACKREFERENCE)
    const atom = this.escapeInClassOrNot(false)
    this.out += typeof atom === 'number' ? hex(atom) : setSyntax(atom)
  }

  /** The set of a class escape (`\d`, `\S`, …) or the code point of a character escape at `at`. */
  private escapeInClassOrNot(inClass: boolean): number | CodePoints {
    const { source } = this
    const next = source[this.at + 1]!
    const set = CLASS_ESCAPES[next]
    if (set !== undefined) {
      this.at += 2
      return set
    }
    if (next === 'p' || next === 'P') {
      const close = source.indexOf('}', this.at) + 1
      const property = source.slice(this.at, close)
      this.at = close
      return propertyCodePoints(property)
    }
    const control = CONTROL_ESCAPES[next]
    let code: number
    let width = 2
    if (control !== undefined) code = control
    else if (next === 'b' && inClass) code = 0x08
    else if (next === '0') code = 0
    else if (next === 'c') {
      code = source.charCodeAt(this.at + 2) % 32
      width = 3
    } else if (next === 'x') {
      code = Number.parseInt(source.slice(this.at + 2, this.at + 4), 16)
      width = 4
    } else if (next === 'u' && source[this.at + 2] === '{') {
      const close = source.indexOf('}', this.at)
      code = Number.parseInt(source.slice(this.at + 3, close), 16)
      width = close + 1 - this.at
    } else if (next === 'u') {
      code = Number.parseInt(source.slice(this.at + 2, this.at + 6), 16)
      width = 6
      const trail = /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(source.slice(this.at + 6, this.at + 12))
      if (code >= 0xd800 && code <= 0xdbff && trail !== null) {
        // `u` mode reads `\uHHHH\uHHHH` spelling a surrogate pair as one code point.
        code = 0x10000 + (code - 0xd800) * 0x400 + (Number.parseInt(trail[1]!, 16) - 0xdc00)
        width = 12
      }
    } else code = next.charCodeAt(0) // an identity escape: `\.`, `\/`, `\-` in a class (ASCII in `u` mode)
    this.at += width
    return code
  }

  private characterClass(): void {
    const { source } = this
    this.at++
    const negated = source[this.at] === '^'
    if (negated) this.at++
    const ranges: number[] = []
    while (source[this.at] !== ']') {
      const first = this.classAtom()
      if (typeof first !== 'number') ranges.push(...first)
      else if (source[this.at] === '-' && source[this.at + 1] !== ']') {
        this.at++
        // `u` mode has no range with a class escape at either end.
        ranges.push(first, this.classAtom() as number)
      } else ranges.push(first, first)
    }
    this.at++
    const set = normalized(ranges)
    this.out += setSyntax(negated ? complement(set) : set)
  }

  private classAtom(): number | CodePoints {
    if (this.source[this.at] === '\\') return this.escapeInClassOrNot(true)
    const code = this.source.codePointAt(this.at)!
    this.at += code > 0xffff ? 2 : 1
    return code
  }
}

/** Why `pattern` is not a `u`-mode regex, or `undefined` when it is one (V8 parses it; nothing is matched). */
function unicodeModeError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u')
    return undefined
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return message.replace(/^Invalid regular expression: \/.*\/u: /s, '')
  }
}

type LinearPattern = RE2JS | UnsupportedPatternError

/**
 * Whether the pattern can match the empty string between the two halves of a surrogate pair, and there only through
 * a `\B`. V8 tries a match at that index (unlike the specification, which steps over whole code points): `/\B/u`
 * matches `"a😀a"` in V8 and never in RE2, which steps by code point too.
 */
function matchesEmptyOnlyInsidePairs(pattern: string, re2: Re2js['RE2JS']): boolean {
  const emptyWith = (nonBoundary: string): boolean => {
    const syntax = new Translation(pattern, betweenPairHalves(nonBoundary)).run()
    if (typeof syntax !== 'string') throw new Refused(syntax) // only the budget: the rest was read once already
    return re2.compile(syntax).test('')
  }
  return emptyWith('(?:)') && !emptyWith(NEVER)
}

function translated(pattern: string): RE2JS | Refusal {
  const invalid = unicodeModeError(pattern)
  if (invalid !== undefined) return invalidInUnicodeMode(invalid)
  const translation = new Translation(pattern, EXACT)
  const syntax = translation.run()
  if (typeof syntax !== 'string') return syntax
  const { RE2JS: re2, RE2JSException } = loadRe2js()
  try {
    if (translation.usesNonBoundary && matchesEmptyOnlyInsidePairs(pattern, re2)) return EMPTY_NON_BOUNDARY
    return re2.compile(syntax)
  } catch (error) {
    if (error instanceof Refused) return error.refusal
    if (!(error instanceof RE2JSException)) throw error
    return rejectedByRe2(error.message.replace(/^error parsing regexp: /, ''))
  }
}

function compileUncached(pattern: string): LinearPattern {
  const engine = translated(pattern)
  return 'construct' in engine ? new UnsupportedPatternError(pattern, engine.construct, engine.hint) : engine
}

/**
 * What the process keeps of compiled patterns: at most `entries` of them, together at most `programSize` RE2
 * instructions (a pattern's memory grows with its program). Past either bound the least recently used go first (and
 * are compiled again if they come back), so numerous or hostile patterns cannot grow memory without bound. ajv holds
 * its own reference to each pattern of a live validator, so dropping an entry never changes a verdict.
 */
export const COMPILED_PATTERN_CAP = { entries: 1024, programSize: 1 << 17 } as const

/** Oldest first: a Map iterates in insertion order and every hit is re-inserted. */
const compiled = new Map<string, LinearPattern>()
let compiledProgramSize = 0

const programSize = (entry: LinearPattern): number =>
  entry instanceof UnsupportedPatternError ? 0 : entry.programSize()

function evictBeyondCap(): void {
  for (const [pattern, entry] of compiled) {
    if (
      compiled.size <= COMPILED_PATTERN_CAP.entries &&
      compiledProgramSize <= COMPILED_PATTERN_CAP.programSize
    )
      return
    if (compiled.size === 1) return // the newest is kept even when it alone is over the budget
    compiled.delete(pattern)
    compiledProgramSize -= programSize(entry)
  }
}

/**
 * RE2JS for a JSON Schema pattern, matching exactly as `new RegExp(pattern, 'u').test` does, or why it cannot run;
 * memoized per pattern text within `COMPILED_PATTERN_CAP`.
 */
export function compileLinear(pattern: string): LinearPattern {
  let entry = compiled.get(pattern)
  if (entry !== undefined) {
    compiled.delete(pattern)
    compiled.set(pattern, entry)
    return entry
  }
  entry = compileUncached(pattern)
  compiled.set(pattern, entry)
  compiledProgramSize += programSize(entry)
  evictBeyondCap()
  return entry
}

/** ajv's `code.regExp`: `test` searches like `RegExp.prototype.test` (JSON Schema patterns are unanchored). */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, _flags: string) => {
    const engine = compileLinear(pattern)
    return {
      test(input: string): boolean {
        if (engine instanceof UnsupportedPatternError) throw engine
        return engine.test(input)
      },
      toString: () => `re2:${pattern}`,
    }
  },
  // ajv writes this into standalone code only; this package never generates standalone validators.
  { code: 're2js' },
)
