import {
  CLASS_ESCAPES,
  type CodePoints,
  complement,
  DOT,
  hex,
  normalized,
  setSyntax,
} from './linear-regexp-code-points.ts'
import { propertyCodePoints } from './linear-regexp-properties.ts'
import {
  BACKREFERENCE,
  LARGE_COUNT,
  LOOKAROUND,
  MAX_TRANSLATED_LENGTH,
  MODIFIER_GROUP,
  type Refusal,
  Refused,
  TOO_LARGE,
} from './linear-regexp-refusals.ts'

/** What each ECMAScript assertion becomes in RE2 syntax. */
export interface Assertions {
  readonly '^': string
  readonly $: string
  readonly b: string
  readonly B: string
}

export const NEVER = setSyntax([])

/** Without the `m` flag `^` and `$` are the ends of the input only (not before a final line terminator); RE2's
 * `\b` is ASCII, a boundary between exactly ECMAScript's word characters and the rest. */
export const EXACT: Assertions = { '^': '\\A', $: '\\z', b: '\\b', B: '\\B' }

/** The assertions as they hold between the two halves of a surrogate pair: no end, no word on either side. */
export const betweenPairHalves = (nonBoundary: string): Assertions => ({
  '^': NEVER,
  $: NEVER,
  b: NEVER,
  B: nonBoundary,
})

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b }

const isAsciiAlphanumeric = (char: string): boolean =>
  (char >= '0' && char <= '9') || (char >= 'A' && char <= 'Z') || (char >= 'a' && char <= 'z')

/**
 * Reads a `u`-mode pattern that V8 has already accepted, left to right in one pass (no recursion: groups map to
 * groups), and writes RE2 syntax with the same meaning for `test`. Captures and laziness do not change whether a
 * match exists, so every group becomes `(?:…)` and lazy quantifiers become greedy.
 */
export class Translation {
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
