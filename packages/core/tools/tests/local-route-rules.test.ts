import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkProfileContract,
  createToolContract,
  type JsonObject,
  type ProfileId,
  projectParameters,
} from '../src/index.ts'
import { mcpParameters } from './projection-arbitraries.ts'

const wireOf = (schema: JsonObject, profile: ProfileId) => projectParameters(schema, profile).wire
const one = (property: JsonObject): JsonObject => ({ type: 'object', properties: { p: property } })
const propertyOf = (wire: JsonObject) => (wire.properties as Record<string, JsonObject>).p!

describe('cloud rule classes, each from its reported shape', () => {
  it("openai-strict spills `default` (\"In context=('properties', 'name'), 'default' is not permitted.\")", () => {
    const wire = wireOf(one({ type: 'string', default: 'x' }), 'openai-strict')
    expect(JSON.stringify(wire)).not.toContain('"default":')
    expect(propertyOf(wire).anyOf ?? propertyOf(wire).type).toBeDefined()
    expect(JSON.stringify(wire)).toContain('default')
  })

  it('openai and codex send an object without properties with `properties: {}` ("object schema missing properties")', () => {
    for (const profile of ['openai', 'codex'] as const) {
      expect(wireOf({ type: 'object' }, profile), profile).toMatchObject({ type: 'object', properties: {} })
      expect(
        propertyOf(wireOf(one({ type: 'object', additionalProperties: true }), profile)),
        profile,
      ).toMatchObject({ properties: {} })
    }
    // deepseek: no source reports it; the schema goes as declared.
    const declared: JsonObject = { type: 'object' }
    expect(wireOf(declared, 'deepseek')).toBe(declared)
  })

  it('gemini never lists the empty string in an enum ("enum[3]: cannot be empty"), and reads the choice back', () => {
    const schema = one({ type: 'string', enum: ['list', 'open', ''] })
    const wire = wireOf(schema, 'gemini')
    expect((propertyOf(wire).enum as string[]).includes('')).toBe(false)
    expect(checkProfileContract(wire, 'gemini')).toEqual([])
    const contract = createToolContract(schema, { tool: 't' })
    expect(contract.parseArguments({ p: JSON.stringify('') }, 'gemini')).toEqual({ p: '' })
    expect(contract.parseArguments({ p: JSON.stringify('open') }, 'gemini')).toEqual({ p: 'open' })
  })

  it('gemini sends `format: "enum"` only beside an enum', () => {
    expect(propertyOf(wireOf(one({ type: 'string', format: 'enum' }), 'gemini')).format).toBeUndefined()
    expect(propertyOf(wireOf(one({ type: 'string', format: 'enum', enum: ['a'] }), 'gemini')).format).toBe(
      'enum',
    )
  })
})

describe('local engines', () => {
  it('llama-cpp sends no pattern (unanchored: "Pattern must start with \'^\' and end with \'$\'"; `\\S`: "failed to parse grammar")', () => {
    for (const pattern of ['\\S', '^\\S+$']) {
      const wire = wireOf(one({ type: 'string', pattern }), 'llama-cpp')
      expect(propertyOf(wire).pattern, pattern).toBeUndefined()
      expect(propertyOf(wire).description).toContain('pattern')
    }
  })

  it('llama-cpp spills a bound past 1999 ("number of repetitions exceeds sane defaults") and keeps a small one', () => {
    const wire = wireOf(one({ type: 'string', maxLength: 65536, minLength: 1 }), 'llama-cpp')
    expect(propertyOf(wire).maxLength).toBeUndefined()
    expect(propertyOf(wire).minLength).toBe(1)
    const contract = createToolContract(one({ type: 'string', maxLength: 65536 }), { tool: 't' })
    expect(() => contract.parseArguments({ p: 'x'.repeat(65537) }, 'llama-cpp')).toThrow()
  })

  it('vllm spills what xgrammar refuses ("The provided JSON schema contains features not supported by xgrammar.")', () => {
    const wire = wireOf(
      one({ type: 'array', items: { type: 'number', multipleOf: 2 }, uniqueItems: true, minItems: 1 }),
      'vllm',
    )
    expect(propertyOf(wire).uniqueItems).toBeUndefined()
    expect((propertyOf(wire).items as JsonObject).multipleOf).toBeUndefined()
    expect(propertyOf(wire).minItems).toBe(1)
    expect(propertyOf(wireOf(one({ type: 'string', format: 'color' }), 'vllm')).format).toBeUndefined()
    expect(propertyOf(wireOf(one({ type: 'string', format: 'uuid' }), 'vllm')).format).toBe('uuid')
  })

  it('vllm spills a length bound beside a pattern or format ("a string mixing a generative constraint … with length bounds")', () => {
    const wire = propertyOf(wireOf(one({ type: 'string', pattern: '^[a-z]+$', maxLength: 8 }), 'vllm'))
    expect(wire.pattern).toBe('^[a-z]+$')
    expect(wire.maxLength).toBeUndefined()
    expect(wire.description).toContain('maxLength')
    const declared = one({ type: 'string', maxLength: 8 })
    expect(wireOf(declared, 'vllm')).toBe(declared)
  })

  it('ollama: what its Go structs drop is described, a boolean subschema is not sent, a $ref is inlined', () => {
    const schema: JsonObject = {
      type: 'object',
      $defs: { Mode: { type: 'string', enum: ['a', 'b'] } },
      properties: {
        path: { type: 'string', pattern: '^/', minLength: 1 },
        mode: { $ref: '#/$defs/Mode' },
        anything: true,
        choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    }
    const wire = wireOf(schema, 'ollama')
    const properties = wire.properties as Record<string, JsonObject>
    expect(properties.path).toMatchObject({ type: 'string' })
    expect(properties.path!.pattern).toBeUndefined()
    expect(properties.path!.description).toContain('pattern')
    expect(properties.mode).toEqual({ type: 'string', enum: ['a', 'b'] })
    expect(properties.anything).toMatchObject({ type: 'string' })
    expect(properties.choice!.anyOf).toBeDefined()
    expect(JSON.stringify(wire)).not.toContain('$ref')
    expect(checkProfileContract(wire, 'ollama')).toEqual([])
  })

  it('ollama and conservative send a parameterless tool with `properties: {}`', () => {
    for (const profile of ['ollama', 'conservative'] as const)
      expect(wireOf({ type: 'object' }, profile), profile).toEqual({ type: 'object', properties: {} })
  })
})

/** Shapes the local engines and the cloud classes above refuse, beside whatever the MCP generator builds. */
const hardProperty: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.constant<JsonObject>({ type: 'string', enum: ['', 'a'] }),
  fc.constant<JsonObject>({ type: 'string', format: 'enum' }),
  fc.constant<JsonObject>({ type: 'string', pattern: '\\S', maxLength: 65536 }),
  fc.constant<JsonObject>({ type: 'array', items: { type: 'integer', multipleOf: 3 }, uniqueItems: true }),
  fc.constant<JsonObject>({ type: 'object' }),
  fc.constant<JsonObject>({ type: 'string', default: 'x', format: 'color' }),
  fc.constant<JsonObject>({ type: ['string', 'integer'], minLength: 2500 }),
  fc.constant<JsonObject>({ type: 'string', format: 'date', pattern: '^\\d', minLength: 1 }),
)
const schemas: fc.Arbitrary<JsonObject> = fc
  .tuple(mcpParameters, fc.array(hardProperty, { maxLength: 3 }))
  .map(([schema, extra]) => {
    const properties = { ...((schema.properties as JsonObject | undefined) ?? {}) }
    extra.forEach((property, i) => {
      properties[`hard_${i}`] = property
    })
    return { ...schema, properties }
  })

const NEW_PROFILES: readonly ProfileId[] = ['ollama', 'llama-cpp', 'vllm', 'conservative']
// Every non-strict model route: what `conservative` must be accepted by.
const MODEL_ROUTES: readonly ProfileId[] = [
  'deepseek',
  'openai',
  'codex',
  'anthropic',
  'gemini',
  'moonshot',
  'ollama',
  'llama-cpp',
  'vllm',
]

describe('properties of the new profiles (fast-check, bounded by run count)', () => {
  it('the projection of any generated schema meets the profile contract, and projecting again changes nothing', () => {
    fc.assert(
      fc.property(
        schemas,
        fc.constantFrom(...NEW_PROFILES, 'openai', 'codex', 'openai-strict', 'gemini'),
        (s, p) => {
          const { wire } = projectParameters(s, p)
          expect(checkProfileContract(wire, p)).toEqual([])
          expect(projectParameters(wire, p).wire).toBe(wire)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('the conservative wire is accepted by every non-strict route (but Gemini’s `null` type and Codex’s nullable optionals, see PROFILES.md)', () => {
    fc.assert(
      fc.property(schemas, (s) => {
        const { wire } = projectParameters(s, 'conservative')
        for (const route of MODEL_ROUTES) {
          // Codex's nullable optionals are not a refusal (its models fill optional fields): not required here.
          const refused = checkProfileContract(wire, route).filter(
            (v) =>
              !(route === 'gemini' && v.message.includes('`null` as a type')) &&
              !(route === 'codex' && v.message.includes('optional field that does not admit null')),
          )
          expect(refused, `${route}: ${JSON.stringify(wire)}`).toEqual([])
        }
      }),
      { numRuns: 150 },
    )
  })
})
