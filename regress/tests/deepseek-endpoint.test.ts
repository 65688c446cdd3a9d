import { describe, expect, it } from 'vitest'
import { LOCAL_WORDING, rejectionOf } from '../src/deepseek-endpoint.ts'

const tool = (parameters: unknown) => ({ function: { name: 'probe', parameters } })

describe('rejectionOf: whose words a refusal quotes', () => {
  it('rule 1 (root not an object schema) is DeepSeek’s observed text, verbatim', () => {
    expect(rejectionOf(tool({ q: { type: 'string' } }))).toBe(
      `Invalid schema for function 'probe': schema must be a JSON Schema of 'type: "object"', got 'type: null'`,
    )
    expect(rejectionOf(tool({ type: 'array' }))).toBe(
      `Invalid schema for function 'probe': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'`,
    )
  })

  it('rule 2 (invalid JSON Schema) says it is this endpoint’s ajv check, with the pointer', () => {
    const message = rejectionOf(
      tool({ type: 'object', properties: { q: { type: 'string', required: true } } }),
    )
    expect(message).toBe(
      `Invalid schema for function 'probe': [${LOCAL_WORDING}] /properties/q/required must be array`,
    )
  })

  it('accepts a valid object schema', () => {
    expect(rejectionOf(tool({ type: 'object', properties: { q: { type: 'string' } } }))).toBeUndefined()
  })
})
