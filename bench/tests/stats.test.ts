import { describe, expect, it } from 'vitest'
import { quantile, spread } from '../src/stats.ts'

describe('quantile', () => {
  it('interpolates between the nearest ranks, whatever the input order', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5)
    expect(quantile([10, 0], 0.25)).toBe(2.5)
    expect(quantile([7], 0.75)).toBe(7)
  })

  it('refuses an empty sample instead of returning NaN', () => {
    expect(() => quantile([], 0.5)).toThrow(/empty sample/)
  })
})

describe('spread', () => {
  it('reports the median with p25 and p75', () => {
    expect(spread([1, 2, 3, 4, 5])).toEqual({ median: 3, p25: 2, p75: 4 })
  })
})
