import { Ajv } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkToolParameters } from '../src/index.ts'
import { plausibleParameters } from './arbitraries.ts'

const draft07 = new Ajv()
const draft2019 = new Ajv2019()
const draft2020 = new Ajv2020()

/** The validator for the dialect the root declares; draft-07 when it declares none. */
function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2019 | Ajv2020 {
  const dialect = Object.hasOwn(schema, '$schema') ? String(schema.$schema) : ''
  if (dialect.startsWith('https://json-schema.org/draft/2019-09/schema')) return draft2019
  if (dialect.startsWith('https://json-schema.org/draft/2020-12/schema')) return draft2020
  return draft07
}

const RUNS = 5_000

describe('every schema the root contract accepts is a valid JSON Schema', () => {
  it('ajv accepts it against its declared meta-schema, and its root is `type: "object"`', {
    timeout: 600_000,
  }, () => {
    let accepted = 0
    fc.assert(
      fc.property(plausibleParameters, (parameters) => {
        if (checkToolParameters(parameters).violations.length > 0) return
        accepted++
        const schema = parameters as Record<string, unknown>
        expect(schema.type).toBe('object')
        const ajv = validatorFor(schema)
        const valid = ajv.validateSchema(schema)
        expect(valid ? [] : ajv.errors).toEqual([])
      }),
      { numRuns: RUNS },
    )
    // Both verdicts must occur in quantity, or the property says little.
    expect(accepted).toBeGreaterThan(RUNS * 0.1)
    expect(accepted).toBeLessThan(RUNS * 0.9)
  })
})
