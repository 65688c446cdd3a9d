import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SAMPLE_MODES, sampleArguments, validSamples } from '../src/samples.ts'
import { declaredSchema } from './arbitraries.ts'

const ajv = new Ajv({ strict: false })
addFormats.default(ajv)

describe('sample arguments', () => {
  it('are valid for every schema of the common shapes, in every mode', () => {
    fc.assert(
      fc.property(declaredSchema(), fc.integer({ min: 1, max: 1000 }), (schema, seed) => {
        const validate = ajv.compile(schema)
        for (const mode of SAMPLE_MODES) {
          const sample = sampleArguments(schema, mode, seed)
          expect(sample).toBeDefined()
          expect(validate(sample), JSON.stringify({ sample, errors: validate.errors })).toBe(true)
        }
      }),
    )
  })

  it('are the same for the same schema and seed', () => {
    fc.assert(
      fc.property(declaredSchema(), fc.integer({ min: 1, max: 1000 }), (schema, seed) => {
        for (const mode of SAMPLE_MODES)
          expect(sampleArguments(schema, mode, seed)).toEqual(sampleArguments(schema, mode, seed))
      }),
    )
  })

  it('follow local $refs and patterns (fast-check builds the matching string)', () => {
    const schema = {
      type: 'object',
      $defs: { id: { type: 'string', pattern: '^[a-z]{3}-[0-9]{2}$' } },
      properties: { id: { $ref: '#/$defs/id' } },
      required: ['id'],
    }
    const sample = sampleArguments(schema, 'required-only', 7) as { id: string }
    expect(sample.id).toMatch(/^[a-z]{3}-[0-9]{2}$/)
  })

  it('keeps only what the validator accepts', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    expect(validSamples(schema, () => false)).toEqual([])
    expect(validSamples(schema, () => true)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }])
  })
})
