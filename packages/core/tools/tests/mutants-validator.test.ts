import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject } from '../src/index.ts'
import { tally } from './work.ts'

/**
 * What a mutation of the validator's hot code would change for a user (issue 23 item 7: "the `$ref` verdict memo
 * key" and "`allErrors` on the hot validator" survived the suite). A `$ref` verdict is remembered per value position
 * and reference for one call: two positions, two references or two tools never share one.
 */
const TOOL = { tool: 'mutants', source: 'mutants-validator.test.ts' }

function violations(schema: JsonObject, args: unknown): readonly string[] {
  return createToolContract(schema, TOOL)
    .validate(args)
    .map((violation) => `${violation.pointer} ${violation.keyword}`)
}

const TEXT = { $defs: { text: { type: 'string' } } }

describe('a $ref verdict is remembered for its own value position and reference only', () => {
  it('sibling keys with one reference: the wrong one is refused, the right one is not', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { title: { $ref: '#/$defs/text' }, body: { $ref: '#/$defs/text' } },
      ...TEXT,
    }
    expect(violations(schema, { title: 'ok', body: 5 })).toEqual(['/body type'])
    expect(violations(schema, { title: 5, body: 'ok' })).toEqual(['/title type'])
    expect(violations(schema, { title: 'ok', body: 'ok' })).toEqual([])
  })

  it('one key in two containers (array items): each container is judged on its own', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          items: { type: 'object', properties: { label: { $ref: '#/$defs/text' } } },
        },
      },
      ...TEXT,
    }
    expect(violations(schema, { rows: [{ label: 'a' }, { label: 5 }] })).toEqual(['/rows/1/label type'])
    expect(violations(schema, { rows: [{ label: 5 }, { label: 'a' }] })).toEqual(['/rows/0/label type'])
  })

  it('one position under two references: each reference gets its own verdict', () => {
    const defs = { $defs: { count: { type: 'integer' }, text: { type: 'string' } } }
    const either: JsonObject = {
      type: 'object',
      properties: { value: { anyOf: [{ $ref: '#/$defs/count' }, { $ref: '#/$defs/text' }] } },
      ...defs,
    }
    expect(violations(either, { value: 'seven' })).toEqual([])
    expect(violations(either, { value: 7 })).toEqual([])
    const both: JsonObject = {
      type: 'object',
      properties: { value: { allOf: [{ $ref: '#/$defs/text' }, { $ref: '#/$defs/count' }] } },
      ...defs,
    }
    expect(violations(both, { value: 'seven' })).toEqual(['/value type'])
  })

  it('two tools with the same reference text to different definitions never read each other’s', () => {
    const textTool: JsonObject = {
      type: 'object',
      properties: { v: { $ref: '#/$defs/v' } },
      $defs: { v: { type: 'string' } },
    }
    const countTool: JsonObject = {
      type: 'object',
      properties: { v: { $ref: '#/$defs/v' } },
      $defs: { v: { type: 'integer' } },
    }
    expect(violations(textTool, { v: 'a' })).toEqual([])
    expect(violations(countTool, { v: 1 })).toEqual([])
    expect(violations(countTool, { v: 'a' })).toEqual(['/v type'])
    expect(violations(textTool, { v: 1 })).toEqual(['/v type'])
  })
})

describe('a $ref verdict is remembered within one call', () => {
  it('a value judged twice under one reference is evaluated once, in a valid call and a refused one', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { name: { allOf: [{ $ref: '#/$defs/text' }, { $ref: '#/$defs/text' }] } },
      ...TEXT,
    }
    const meter = tally()
    const contract = createToolContract(schema, TOOL, { meter })
    meter.reset()
    expect(contract.validate({ name: 'ok' })).toEqual([])
    expect(meter.of('ref-evaluation')).toBe(1)
    meter.reset()
    // Refused: once for the verdict, once more for the wording (a pass of its own, with its own memo).
    expect(contract.validate({ name: 5 }).map((violation) => violation.pointer)).toEqual(['/name'])
    expect(meter.of('ref-evaluation')).toBe(2)
  })
})

describe('a refused call: the verdict stops at the first error, the wording lists them all', () => {
  const KEYS = Array.from({ length: 8 }, (_, index) => `field${index}`)
  const schema: JsonObject = {
    type: 'object',
    properties: Object.fromEntries(KEYS.map((key) => [key, { $ref: '#/$defs/text' }])),
    ...TEXT,
  }
  const allWrong = Object.fromEntries(KEYS.map((key) => [key, 0]))

  it('every wrong argument is named (within the error budget), not only the first', () => {
    expect(violations(schema, allWrong)).toEqual(KEYS.map((key) => `/${key} type`))
  })

  it('the valid-or-not pass stops at the first wrong argument: one pass over all of them, not two', () => {
    const meter = tally()
    const contract = createToolContract(schema, TOOL, { meter })
    meter.reset()
    expect(contract.validate(allWrong)).toHaveLength(KEYS.length)
    // The wording pass evaluates each field's reference once; the verdict before it, only the first.
    expect(meter.of('ref-evaluation')).toBe(KEYS.length + 1)
  })
})
