import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject, PROFILE_IDS } from '../src/index.ts'
import { IDENTITY } from '../src/projection/project.ts'
import { readingRules } from '../src/projection/reading-rules.ts'
import { readArguments } from '../src/read/read-arguments.ts'
import { SlotShapes } from '../src/read/slot-shape.ts'
import { schemaAndValue } from './projection-arbitraries.ts'

/**
 * Issue 24, item 2: per-route lenient readings for what a route's models are reported to send that the declared
 * schema refuses — `null` for an optional field that takes no null, a number as a numeric string — and never a change
 * to a value the declared schema accepts.
 */
const TOOL = { tool: 'rules', source: 'vitest' }
const BOTH = { nullAsAbsent: true, numericStrings: true }

const schema: JsonObject = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    label: { type: 'string' },
    either: { type: ['number', 'string'] },
    maybe: { type: ['number', 'null'] },
    nested: { type: 'object', properties: { depth: { type: 'number' }, note: { type: 'string' } } },
    list: { type: 'array', items: { type: 'number' } },
  },
  required: ['count'],
}

function read(args: unknown, rules = BOTH): unknown {
  const contract = createToolContract(schema, TOOL)
  return readArguments(args, IDENTITY, new SlotShapes(contract.declared), contract.declared, undefined, rules)
}

describe('reading rules', () => {
  it('null in an optional slot that takes no null reads as not provided', () => {
    expect(read({ count: 1, ratio: null, label: null, nested: { depth: null } })).toStrictEqual({
      count: 1,
      nested: {},
    })
  })

  it('keeps null where the declared schema admits it, and in a required slot (the validator names it there)', () => {
    expect(read({ count: null, maybe: null })).toStrictEqual({ count: null, maybe: null })
  })

  it('a numeric string in a number or integer slot that takes no string reads as the number', () => {
    expect(read({ count: '3', ratio: '-2.5e1', nested: { depth: '0' }, list: ['1', 2] })).toStrictEqual({
      count: 3,
      ratio: -25,
      nested: { depth: 0 },
      list: [1, 2],
    })
  })

  it('never parses a string the declared schema allows, nor one that is not a JSON number', () => {
    const args = { count: 1, label: '42', either: '7', nested: { note: '1' }, ratio: ' 7' }
    expect(read(args)).toBe(args)
    for (const text of ['0x10', 'Infinity', '1.', '+1', '', '1e', '--1'])
      expect(read({ count: text }), text).toStrictEqual({ count: text })
  })

  it('a route without rules reads as before', () => {
    const args = { count: '3', ratio: null }
    expect(read(args, { nullAsAbsent: false, numericStrings: false })).toBe(args)
  })

  it('the routes whose models are reported to do it get each rule, and no other route does', () => {
    // PROFILES.md "Reading rules": the reports behind each route.
    expect(PROFILE_IDS.filter((profile) => readingRules(profile).nullAsAbsent)).toEqual([
      'openai-strict',
      'codex',
    ])
    expect(PROFILE_IDS.filter((profile) => readingRules(profile).numericStrings)).toEqual([
      'anthropic',
      'ollama',
    ])
  })

  it('each route in PROFILE_IDS gets its rules through normalizeArguments', () => {
    const contract = createToolContract(schema, TOOL)
    for (const profile of PROFILE_IDS) {
      const rules = readingRules(profile)
      const read = contract.normalizeArguments({ count: '3', nested: { depth: null } }, profile) as JsonObject
      expect(read.count, profile).toBe(rules.numericStrings ? 3 : '3')
      expect(Object.hasOwn(read.nested as JsonObject, 'depth'), profile).toBe(!rules.nullAsAbsent)
    }
  })

  it('a value the declared schema accepts is never changed by the rules (same value back)', {
    timeout: 600_000,
  }, () => {
    let checked = 0
    fc.assert(
      fc.property(schemaAndValue, ({ schema: declared, value }) => {
        const contract = createToolContract(declared, TOOL)
        if (contract.validate(value).length > 0) return
        checked++
        const shapes = new SlotShapes(contract.declared)
        expect(readArguments(value, IDENTITY, shapes, contract.declared, undefined, BOTH)).toBe(value)
      }),
      { numRuns: 400 },
    )
    expect(checked).toBeGreaterThan(100)
  })
})
