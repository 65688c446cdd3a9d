import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToolContract, type JsonObject, PROFILE_IDS } from '../src/index.ts'
import { STRING } from '../src/read/json-type-bits.ts'
import { SlotShapes } from '../src/read/slot-shape.ts'
import { objectOf } from './arbitraries.ts'
import { schemaAndValue } from './projection-arbitraries.ts'
import { hasStringAtJsonText } from './projection-encode.ts'

/**
 * The one tolerance beyond decoding, as properties: a container the model sent as JSON text, in a slot whose declared
 * schema admits that container but no string, reads back as the container — on every route — and nothing else is
 * touched. The identity and wire round-trip properties are in `projection.property.test.ts`.
 */
const TOOL = { tool: 'reading', source: 'fast-check' }

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

describe('stringified containers in container-only slots', () => {
  it('read back deep-equal to the container, for every profile', { timeout: 600_000 }, () => {
    let checked = 0
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const contract = createToolContract(schema, TOOL)
        if (!isContainer(value) || Array.isArray(value) || contract.validate(value).length > 0) return
        const shapes = new SlotShapes(contract.declared)
        const properties = (contract.declared.properties ?? {}) as JsonObject
        const record = value as Record<string, unknown>
        const stringified = Object.keys(record).filter(
          (key) =>
            Object.hasOwn(properties, key) &&
            isContainer(record[key]) &&
            (shapes.admits(properties[key]!) & STRING) === 0,
        )
        if (stringified.length === 0) return
        const args = objectOf(
          Object.entries(record).map(([key, child]) => [
            key,
            stringified.includes(key) ? JSON.stringify(child) : child,
          ]),
        )
        for (const profile of PROFILE_IDS) {
          // A string the declared value itself holds at a JSON-text slot is parsed by design: not this property.
          if (hasStringAtJsonText(value, contract.projection(profile).decoder)) continue
          checked++
          const read = contract.normalizeArguments(args, profile)
          expect(
            isDeepStrictEqual(read, value),
            `${profile}: ${JSON.stringify(args)} read as ${JSON.stringify(read)}`,
          ).toBe(true)
          expect(contract.parseArguments(args, profile)).toStrictEqual(value)
        }
      }),
      { numRuns: 300 },
    )
    expect(checked).toBeGreaterThan(50)
  })

  it('a stringified object in a slot that also admits strings is left as the string it is', () => {
    const contract = createToolContract(
      {
        type: 'object',
        properties: {
          either: { anyOf: [{ type: 'object' }, { type: 'string' }] },
          listed: { type: ['array', 'string'] },
          object: { type: 'object', properties: { n: { type: 'number' } } },
        },
      },
      TOOL,
    )
    const args = { either: '{"a":1}', listed: '[1]', object: '{"n":1}' }
    for (const profile of PROFILE_IDS) {
      const read = contract.normalizeArguments(args, profile) as Record<string, unknown>
      expect(read.listed, profile).toBe('[1]')
      expect(read.object, profile).toEqual({ n: 1 })
      // Only where the route was sent that object branch as JSON text (openai-strict: an open object) is it parsed.
      const sentAsText = hasStringAtJsonText({ either: args.either }, contract.projection(profile).decoder)
      expect(read.either, profile).toEqual(sentAsText ? { a: 1 } : '{"a":1}')
    }
  })
})
