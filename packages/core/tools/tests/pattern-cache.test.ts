import { describe, expect, it } from 'vitest'
import { COMPILED_PATTERN_CAP, compileLinear } from '../src/validate/pattern/linear-regexp.ts'

/**
 * The process-wide memo of compiled patterns is bounded. Observed through identity: a pattern still memoized comes
 * back as the very same compiled object, one that was dropped is compiled anew.
 */
const isKept = (pattern: string, compiledBefore: object): boolean => compileLinear(pattern) === compiledBefore

/** `count` small patterns never compiled before in this file. */
let fresh = 0
function compileFresh(count: number): void {
  for (let i = 0; i < count; i++) compileLinear(`^fresh-${fresh++}$`)
}

describe('the compiled-pattern memo is bounded', () => {
  it('memoizes: the same pattern text gives the same compiled pattern', () => {
    expect(compileLinear('^a+$')).toBe(compileLinear('^a+$'))
  })

  it(`keeps at most ${COMPILED_PATTERN_CAP.entries} patterns, dropping the least recently used`, () => {
    const first = compileLinear('^first$')
    compileFresh(COMPILED_PATTERN_CAP.entries - 1)
    // Exactly at the cap: nothing dropped yet (and this use makes `^first$` the most recent).
    expect(isKept('^first$', first)).toBe(true)
    const second = compileLinear('^second$') // drops the oldest fresh pattern, not `^first$`
    compileFresh(COMPILED_PATTERN_CAP.entries - 2)
    expect(isKept('^second$', second)).toBe(true)
    expect(isKept('^first$', first)).toBe(true)
    compileFresh(COMPILED_PATTERN_CAP.entries)
    expect(isKept('^first$', first)).toBe(false)
    expect(isKept('^second$', second)).toBe(false)
  })

  it(`keeps at most ${COMPILED_PATTERN_CAP.programSize} RE2 instructions, whatever the count`, () => {
    // A large program each: `.` written out is a class, repeated 1000 times.
    const large = (i: number): string => `^.{1000}${i}$`
    const size = (compileLinear(large(0)) as { programSize(): number }).programSize()
    expect(size).toBeGreaterThan(1000)
    const fit = Math.floor(COMPILED_PATTERN_CAP.programSize / size)
    expect(fit).toBeLessThan(COMPILED_PATTERN_CAP.entries / 2)
    const kept = compileLinear(large(1))
    for (let i = 2; i < fit; i++) compileLinear(large(i))
    expect(isKept(large(1), kept)).toBe(true)
    for (let i = fit; i < 2 * fit; i++) compileLinear(large(i))
    expect(isKept(large(1), kept)).toBe(false)
  })

  it('a pattern over the whole budget on its own is compiled, and kept only until the next one', () => {
    const huge = `^${'.{1000}'.repeat(140)}$`
    const engine = compileLinear(huge) as { programSize(): number; test(input: string): boolean }
    expect(engine.programSize()).toBeGreaterThan(COMPILED_PATTERN_CAP.programSize)
    expect(engine.test('b'.repeat(140_000))).toBe(true)
    expect(isKept(huge, engine)).toBe(true)
    compileLinear('^next$')
    expect(isKept(huge, engine)).toBe(false)
  })
})
