import { createToolContract, type Decoder, PROFILE_IDS } from '@dsh-harden/tools'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contractSamples, measureMeaning } from '../src/meaning.ts'
import { encode } from '../src/wire-answer.ts'
import { declaredSchema } from './arbitraries.ts'

describe('the simulated model answer', () => {
  it('is the arguments themselves where the projection encoded nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(encode(value, { kind: 'identity' }, {})).toEqual(value)
      }),
    )
  })

  it('sends a JSON-text slot as JSON text and fills a widened optional with null', () => {
    const decoder: Decoder = {
      kind: 'object',
      properties: new Map<string, Decoder>([['value', { kind: 'json-text' }]]),
      additional: { kind: 'identity' },
      syntheticNull: new Set(['note']),
    }
    expect(encode({ value: { a: [1] } }, decoder, { type: 'object' })).toEqual({
      value: '{"a":[1]}',
      note: null,
    })
  })
})

describe('meaning kept through projection and normalizeArguments', () => {
  it('holds on every route for declared schemas of the common shapes', () => {
    fc.assert(
      fc.property(declaredSchema({ nullableOptional: false }), (schema) => {
        const contract = createToolContract(schema, { tool: 'sampled', source: 'compat-test' })
        const samples = contractSamples(contract)
        expect(samples.length).toBeGreaterThan(0)
        for (const profile of PROFILE_IDS) {
          const meaning = measureMeaning(contract, profile, samples)
          expect({ profile, ...meaning }).toMatchObject({ profile, kept: samples.length, offWire: 0 })
        }
      }),
    )
  })
})
