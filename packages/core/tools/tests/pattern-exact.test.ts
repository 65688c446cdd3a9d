import { describe, expect, it } from 'vitest'
import { createToolContract } from '../src/index.ts'
import { compileLinear, UnsupportedPatternError } from '../src/validate/pattern/linear-regexp.ts'
import { findUnsupportedPatterns } from '../src/validate/pattern-problems.ts'

/** The linear engine's verdict, or the construct it refuses. */
function linear(pattern: string, input: string): boolean | string {
  const engine = compileLinear(pattern)
  return engine instanceof UnsupportedPatternError ? engine.construct : engine.test(input)
}

const v8 = (pattern: string, input: string): boolean => new RegExp(pattern, 'u').test(input)

describe('each construct judges as ECMAScript u-mode (V8) does', () => {
  // [construct, pattern, input, ECMAScript's verdict]
  const cases: [string, string, string, boolean][] = [
    ['\\s: NO-BREAK SPACE is WhiteSpace', '\\s', '\u00a0', true],
    ['\\s: LINE TABULATION', '\\s', '\v', true],
    ['\\s: ZWNBSP (BOM)', '\\s', '\ufeff', true],
    ['\\s: IDEOGRAPHIC SPACE (Zs)', '^\\s$', '\u3000', true],
    ['\\s: LINE SEPARATOR is a LineTerminator', '^\\s$', '\u2028', true],
    ['\\s: NEL is neither', '\\s', '\u0085', false],
    ['\\s: ZERO WIDTH SPACE is neither', '\\s', '\u200b', false],
    ['\\S: IDEOGRAPHIC SPACE is not \\S', '\\S', '\u3000', false],
    ['\\S: PARAGRAPH SEPARATOR is not \\S', '^\\S$', '\u2029', false],
    ['\\S in a negated class: [^\\S\\n] is white space but LF', '^[^\\S\\n]$', '\u2028', true],
    ['.: not CR', '.', '\r', false],
    ['.: not LINE SEPARATOR', '.', '\u2028', false],
    ['.: not PARAGRAPH SEPARATOR', '.', '\u2029', false],
    ['.: not LF', '^.$', '\n', false],
    ['.: an astral character is one character', '^.$', '\u{1f600}', true],
    ['.: an astral character is not two', '^..$', '\u{1f600}', false],
    ['.: a lone surrogate is one character', '^.$', '\ud83d', true],
    ['$: not before a final LF', 'a$', 'a\n', false],
    ['$: not before a final LINE SEPARATOR', 'a$', 'a\u2028', false],
    ['^: not after a leading LF', '^a', '\na', false],
    ['\\d: ASCII digits only', '\\d', '\u0663', false],
    ['\\d: an astral digit is not \\d', '\\d', '\u{1d7d8}', false],
    ['\\D: an astral digit is one \\D', '^\\D$', '\u{1d7d8}', true],
    ['\\w: ASCII word characters only', '\\w', '\u00e9', false],
    ['\\w: LONG S is not \\w without i', '\\w', '\u017f', false],
    ['\\W: an astral character is one \\W', '^\\W$', '\u{1f600}', true],
    ['\\b: between a and an astral character', 'a\\b', 'a\u{1f600}', true],
    ['\\b: é is no word character', '\\b\u00e9', '\u00e9', false],
    ['\\b: before a combining mark', 'e\\b', 'e\u0301', true],
    ['[\\b] is BACKSPACE in a class', '^[\\b]$', '\b', true],
    ['\\B: between start and é', '\\B\u00e9', '\u00e9', true],
    ['\\B: between a and b', 'a\\Bb', 'ab', true],
    ['\\uD83D\\uDE00 is one code point', '^\\uD83D\\uDE00$', '\u{1f600}', true],
    ['\\uD83D\\uDE00 in a class is one code point', '^[\\uD83D\\uDE00]$', '\u{1f600}', true],
    ['\\uD83D\\uDE00 quantified repeats the whole pair', '^\\uD83D\\uDE00{2}$', '\u{1f600}\u{1f600}', true],
    ['\\uD83D\\uDE00? is optional as a whole', '^\\uD83D\\uDE00?$', '\ud83d', false],
    ['\\u{1F600}', '^\\u{1F600}$', '\u{1f600}', true],
    ['a literal astral range', '^[\u{1f600}-\u{1f602}]$', '\u{1f601}', true],
    ['a lone trail surrogate never matches inside a pair', '\\uDE00', '\u{1f600}', false],
    ['a lone lead surrogate never matches inside a pair', '\\uD83D', '\u{1f600}', false],
    ['a lone surrogate matches itself', '^\\uD83D$', '\ud83d', true],
    ['a negated class takes an astral character whole', '^[^a]$', '\u{1f600}', true],
    [
      'a negated surrogate range still takes a pair',
      '\\w[^\\u{10000}-\\u{10FFFF}\\uD800-\\uDFFF\\w]',
      'a ',
      true,
    ],
    ['[^] takes LF', '[^]', '\n', true],
    ['[] takes nothing', '[]', 'a', false],
    ['\\cJ, \\x41, \\0', '^\\x41\\cJ\\0$', 'A\n\0', true],
    ['é precomposed is not e + combining acute', '^\u00e9$', 'e\u0301', false],
    ['a lazy quantifier', '^a{2,3}?$', 'aaa', true],
    ['a named group', '^(?<n>a)+$', 'aa', true],
    ['\\p{L}: an astral letter', '^\\p{L}$', '\u{1d400}', true],
    ['\\p{Lu}: not a lower-case letter', '^\\p{Lu}', 'abc', false],
    ['\\P{L}: a combining mark is no letter', '^\\P{L}$', '\u0301', true],
    ['[^\\p{L}\\s]: a digit', '^[^\\p{L}\\s]$', '7', true],
  ]
  it.each(cases)('%s: %s on %j', (_construct, pattern, input, expected) => {
    expect(v8(pattern, input)).toBe(expected)
    expect(linear(pattern, input)).toBe(expected)
  })
})

describe('character classes agree with V8 on every code point', () => {
  /** Every code point, lone surrogates included. */
  const codePoints = Array.from({ length: 0x110000 }, (_, code) => code)

  // Property escapes are read from V8 itself, so they agree with whatever Unicode version this Node has.
  it.each([
    ...['\\s', '\\S', '.', '\\w', '\\W', '\\d', '\\D', '[^\\s]', '[\\s\\d]', '[^\\w\\s]'],
    ...['\\p{L}', '[^\\p{Lu}\\d]', '\\P{Cn}', '[\\p{Script=Greek}\\p{Nd}]'],
  ])('^%s$', { timeout: 600_000 }, (atom) => {
    const pattern = `^${atom}$`
    const oracle = new RegExp(pattern, 'u')
    const engine = compileLinear(pattern)
    if (engine instanceof UnsupportedPatternError) throw engine
    const differ = codePoints.filter((code) => {
      const text = String.fromCodePoint(code)
      return engine.test(text) !== oracle.test(text)
    })
    expect(differ.map((code) => code.toString(16))).toEqual([])
  })
})

describe('what has no exact translation is refused, named, with a fix', () => {
  const refused: [string, RegExp, RegExp][] = [
    ['^(?!admin).*$', /lookaround/, /without lookaround/],
    ['(?<=a)b', /lookaround/, /without lookaround/],
    ['(a)\\1', /backreference/, /without backreferences/],
    ['\\k<x>(?<x>a)', /backreference/, /without backreferences/],
    ['^a{1001}$', /repetition count above 1000/, /at most 1000/],
    ['^(?:.{1000}){2}$', /nested repetition counts whose product is above 1000/, /smaller counts/],
    ['\\B', /`\\B`.*surrogate pair/, /consume at least one character/],
    ['a*\\B', /`\\B`/, /consume/],
  ]
  it.each(refused)('%s', (pattern, construct, hint) => {
    const engine = compileLinear(pattern)
    expect(engine).toBeInstanceOf(UnsupportedPatternError)
    expect((engine as UnsupportedPatternError).construct).toMatch(construct)
    expect((engine as UnsupportedPatternError).hint).toMatch(hint)
    expect((engine as UnsupportedPatternError).message).toContain(JSON.stringify(pattern))
  })

  it('a `\\B` that needs a character beside it runs', () => {
    expect(linear('a\\B', 'ab')).toBe(true)
    expect(linear('a\\B', 'a\u{1f600}')).toBe(false)
  })

  // ajv builds every pattern with the `u` flag, so a pattern valid only without it never compiles there. It is refused
  // as ajv would refuse it, never run with the looser Annex B reading (where `\-` is `-` and `\x{41}` is 41 x's).
  it.each([
    ['^\\-?\\d+$', /Invalid escape/],
    ['\\a', /Invalid escape/],
    ['^\\x{41}$', /Invalid escape/],
    ['a{', /Incomplete quantifier|Lone quantifier/],
    ['a]', /Lone quantifier brackets/],
    ['[\\d-z]', /Invalid character class/],
    ['\\u{110000}', /Invalid Unicode escape/],
  ])('%s is invalid in u mode: refused with V8’s reason', (pattern, reason) => {
    expect(() => new RegExp(pattern, 'u')).toThrow(SyntaxError)
    const engine = compileLinear(pattern)
    expect(engine).toBeInstanceOf(UnsupportedPatternError)
    expect((engine as UnsupportedPatternError).construct).toMatch(/rejects in Unicode mode/)
    expect((engine as UnsupportedPatternError).construct).toMatch(reason)
  })

  it('findUnsupportedPatterns names the pointer, the construct and the fix', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^\\-?\\d+$' },
        name: { type: 'string', pattern: '^(\\w)\\1$' },
        ok: { type: 'string', pattern: '^\\s*\\p{L}+$' },
      },
      patternProperties: { '^x-(?!internal)': {} },
    }
    const problems = findUnsupportedPatterns(schema)
    expect(problems).toHaveLength(3)
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          pointer: '/properties/id/pattern',
          pattern: '^\\-?\\d+$',
          construct: expect.stringMatching(/Unicode mode.*Invalid escape/),
          hint: expect.stringMatching(/`\\-` only inside/),
        },
        {
          pointer: '/properties/name/pattern',
          pattern: '^(\\w)\\1$',
          construct: expect.stringMatching(/backreference/),
          hint: expect.stringMatching(/without backreferences/),
        },
        {
          pointer: '/patternProperties/^x-(?!internal)',
          pattern: '^x-(?!internal)',
          construct: expect.stringMatching(/lookaround/),
          hint: expect.stringMatching(/lookaround/),
        },
      ]),
    )
  })

  it('a refused pattern reaches the tool’s validator problem, and a call reaching it is refused', () => {
    const contract = createToolContract(
      { type: 'object', properties: { a: { type: 'string', pattern: 'x*\\B' }, b: { type: 'number' } } },
      { tool: 'exact', source: 'test' },
    )
    expect(contract.compileValidator()).toMatchObject({
      pointer: '/properties/a/pattern',
      construct: expect.stringMatching(/`\\B`/),
    })
    expect(contract.validate({ a: 'abc' }).map((violation) => violation.message)).toEqual([
      expect.stringMatching(/"x\*\\\\B".*`\\B`.*consume at least one character/),
    ])
    expect(contract.validate({ b: 1 })).toEqual([])
  })
})
