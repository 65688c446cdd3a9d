import { describe, expect, it } from 'vitest'
import { createToolContract } from '../src/index.ts'
import { compileLinear, UnsupportedPatternError } from '../src/validate/pattern/linear-regexp.ts'

/**
 * The linear pattern engine's verdicts where the mutation run found no test (`validate/pattern/linear-regexp*.ts`): each
 * case is checked against V8's own `u`-mode verdict, and each refusal by the construct and fix it names.
 */
function linearTest(pattern: string, input: string): boolean {
  const engine = compileLinear(pattern)
  if (engine instanceof UnsupportedPatternError) throw engine
  return engine.test(input)
}

function refusalOf(pattern: string): UnsupportedPatternError {
  const engine = compileLinear(pattern)
  if (!(engine instanceof UnsupportedPatternError)) throw new Error(`${pattern} was not refused`)
  return engine
}

/** Pattern, input: the engine must agree with `new RegExp(pattern, 'u').test(input)`. */
const AGREES_WITH_V8: readonly [string, string][] = [
  // An astral literal is one code point, never its lead surrogate alone.
  ['^😀$', '😀'],
  ['^😀$', '\uD83D'],
  ['^😀+$', '😀😀'],
  // U+FFFF is one UTF-16 unit: the character after it is still read.
  ['^\uFFFFa$', '\uFFFFa'],
  ['^\uFFFFa$', '\uFFFF'],
  ['^[\uFFFFa]$', 'a'],
  // An astral literal in a class is one member, not a pair of lone surrogates.
  ['^[😀]$', '😀'],
  ['^[😀]$', '\uDE00'],
  // The empty pattern matches every string.
  ['', 'anything'],
  ['', ''],
  // Ranges, a lone `-` at a class end, and neighbours that are no range.
  ['^[a-c]$', 'b'],
  ['^[ac]$', 'b'],
  ['^[ac]$', 'c'],
  ['^[a-]$', '-'],
  ['^[a-]$', 'a'],
  ['^[a-]$', 'b'],
  // `\uHHHH\uHHHH` spelling a pair is one code point, at both ends of the lead range.
  ['^\\uD800\\uDC00$', '\u{10000}'],
  ['^\\uDBFF\\uDFFF$', '\u{10FFFF}'],
  // A property run across the surrogates does not take them.
  ['^\\P{Cs}$', '\uD800'],
  ['^\\P{Cs}$', '\uD7FF'],
  ['^\\P{Cs}$', '\uE000'],
  // Bounded counts below the limit run.
  ['^a{2,3}$', 'aaa'],
  ['^a{2,3}$', 'aaaa'],
]

describe('the linear engine judges as V8 in u mode', () => {
  it.each(AGREES_WITH_V8)('%j on %j', (pattern, input) => {
    expect(linearTest(pattern, input)).toBe(new RegExp(pattern, 'u').test(input))
  })
})

describe('where V8 departs from the specification, the engine follows the specification', () => {
  it('a negated class whose complement is only the last code point matches it (V8 in Node 20 and 22 does not)', () => {
    expect(linearTest('^[^\\u{0}-\\u{10fffe}]$', '\u{10FFFF}')).toBe(true)
    expect(linearTest('^[^\\u{0}-\\u{10fffe}]$', '\u{10FFFE}')).toBe(false)
  })
})

describe('each refusal names its own construct and fix', () => {
  it('lookahead is refused as lookaround, not as a modifier group', () => {
    for (const pattern of ['(?=a)', '(?!a)', 'x(?<=a)', 'x(?<!a)'])
      expect(refusalOf(pattern).construct).toMatch(/^lookaround/)
  })

  it('a backreference past the eighth group is refused, not read as a literal digit', () => {
    expect(refusalOf('(a)(b)(c)(d)(e)(f)(g)(h)(i)\\9').construct).toMatch(/^a backreference/)
  })

  it('a count above 1000 is refused whichever bound it is', () => {
    expect(refusalOf('^a{2,1001}$').construct).toMatch(/repetition count above 1000/)
    expect(refusalOf('^a{1001}$').construct).toMatch(/repetition count above 1000/)
  })

  it('RE2 syntax past the budget is refused, also when only the surrogate-pair check would write it', () => {
    expect(refusalOf('\\S'.repeat(3000)).construct).toMatch(/^more than 262144 characters of RE2 syntax/)
    // `^` is short as RE2 syntax for the match itself and long for the check between pair halves.
    expect(refusalOf(`\\B${'^'.repeat(15_000)}`).construct).toMatch(/^more than 262144 characters/)
  })

  it('invalid u-mode syntax: V8’s reason without its message prefix, and how to escape', () => {
    const refusal = refusalOf('ab]')
    expect(refusal.construct).toMatch(/Unicode mode .*: Lone quantifier brackets$/)
    expect(refusal.construct).not.toMatch(/Invalid regular expression/)
    expect(refusal.hint).toMatch(/write a literal `\{`, `\}` or `\]` as/)
  })

  it('RE2’s own rejections: nested counts by their product, anything else as a structure it does not compile', () => {
    expect(refusalOf('(?:a{1000}){1000}').construct).toMatch(
      /^nested repetition counts whose product is above 1000/,
    )
    const tooLarge = refusalOf('a{1000}'.repeat(2000))
    expect(tooLarge.construct).toBe('a structure RE2 does not compile (expression too large)')
    expect(tooLarge.hint).toMatch(/nest fewer groups/)
  })

  it('is an UnsupportedPatternError whose message names the pattern, the construct and the fix', () => {
    const refusal = refusalOf('(?=a)')
    expect(refusal.name).toBe('UnsupportedPatternError')
    expect(refusal.message).toMatch(
      /^pattern "\(\?=a\)" cannot run .*: it uses lookaround .*; rewrite the pattern/,
    )
  })
})

describe('ajv runs every pattern of a schema on the linear engine, each its own', () => {
  it('two properties with two patterns: each value is judged by its own pattern', () => {
    const contract = createToolContract(
      {
        type: 'object',
        properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
      },
      { tool: 'patterns', source: 'mutants-linear-regexp.test.ts' },
    )
    expect(contract.validate({ a: 'a', b: 'b' })).toEqual([])
    expect(contract.validate({ a: 'b', b: 'a' }).map((violation) => violation.pointer)).toEqual(['/a', '/b'])
  })
})
