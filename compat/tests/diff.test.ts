import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonDifferences, jsonEqual } from '../src/diff.ts'

describe('jsonDifferences', () => {
  it('names each difference by a JSON pointer into the left value', () => {
    expect(
      jsonDifferences({ a: [1, 2], 'b/c': 'x', gone: true }, { a: [1, 3, 4], 'b/c': 'y', new: null }),
    ).toEqual([
      { pointer: '/gone', kind: 'removed', value: 'true' },
      { pointer: '/new', kind: 'added', value: 'null' },
      { pointer: '/a/2', kind: 'added', value: '4' },
      { pointer: '/a/1', kind: 'changed', value: '3' },
      { pointer: '/b~1c', kind: 'changed', value: '"y"' },
    ])
  })

  it('finds none between a JSON value and its copy with keys reordered, and some after any edit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value), (_key, v) =>
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        )
        expect(jsonEqual(value, reordered)).toBe(true)
        expect(jsonEqual({ v: value }, { v: value, extra: 1 })).toBe(false)
      }),
    )
  })

  it('walks 10,000 levels without running out of call stack', () => {
    let left: unknown = 0
    let right: unknown = 1
    for (let depth = 0; depth < 10_000; depth++) {
      left = { x: left }
      right = { x: right }
    }
    expect(jsonDifferences(left, right)).toHaveLength(1)
  })
})
