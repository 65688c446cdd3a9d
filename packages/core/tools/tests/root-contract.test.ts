import { describe, expect, it } from 'vitest'
import {
  checkToolParameters,
  enforceToolParameters,
  JsonSchemaError,
  type SchemaViolation,
} from '../src/index.ts'

/** `[pointer, rule]` pairs: what the tests pin down; messages and hints are for people and may be reworded. */
function found(parameters: unknown): [string, string][] {
  return checkToolParameters(parameters).violations.map((v) => [v.pointer, v.rule])
}

function thrown(run: () => unknown): JsonSchemaError {
  try {
    run()
  } catch (error) {
    if (error instanceof JsonSchemaError) return error
    throw error
  }
  throw new Error('expected a JsonSchemaError')
}

const VISION = { tool: 'vision_query', source: 'dsh-image-vision' }

describe('bare property tables (#297, #447)', () => {
  const issue297 = {
    images: { type: 'array', items: { type: 'string' }, required: true },
    prompt: { type: 'string' },
  }

  it('reports the missing object root and the misplaced `required: true` together, with pointers', () => {
    expect(found(issue297)).toEqual([
      ['', 'bare-property-table'],
      ['/images/required', 'required-in-property'],
    ])
  })

  it('throws one JsonSchemaError that names the tool, its source, every pointer and a fix', () => {
    const error = thrown(() => enforceToolParameters(issue297, VISION))
    expect(error.name).toBe('JsonSchemaError')
    expect(error.code).toBe('UNSUPPORTED_SCHEMA')
    expect(error.tool).toBe('vision_query')
    expect(error.source).toBe('dsh-image-vision')
    expect(error.message).toContain('"vision_query"')
    expect(error.message).toContain('"dsh-image-vision"')
    expect(error.details.map((d: SchemaViolation) => d.pointer)).toEqual(['', '/images/required'])
    expect(error.violations).toHaveLength(2)
    expect(error.violations[1]).toContain('/images/required')
    for (const detail of error.details) expect(detail.hint).not.toBe('')
  })

  it('recognizes a single-entry table for a `cmd` tool (#447)', () => {
    expect(found({ cmd: { type: 'string', description: 'the shell command to run' } })).toEqual([
      ['', 'bare-property-table'],
    ])
  })

  it('still reads a table whose property names are keywords holding schemas as a table', () => {
    expect(found({ description: { type: 'string' }, format: { type: 'string' } })).toEqual([
      ['', 'bare-property-table'],
    ])
  })

  it('checks every entry of a table as the property schema it was meant to be', () => {
    expect(found({ cmd: { type: 'json' }, cwd: { type: 'string', pattern: '(' } })).toEqual([
      ['', 'bare-property-table'],
      ['/cmd/type', 'type-unknown'],
      ['/cwd/pattern', 'pattern-invalid'],
    ])
  })
})

describe('the root must be one object schema with type "object"', () => {
  it('does not call a root ambiguous between a schema and a table a bare table, so repair mode refuses it', () => {
    const itemsOnly = { items: { type: 'string' } }
    expect(found(itemsOnly)).toEqual([['', 'root-unrecognized']])
    expect(() => enforceToolParameters(itemsOnly, VISION, { mode: 'repair' })).toThrow(JsonSchemaError)
  })

  it('reports `required: true` inside a property of a proper object root', () => {
    const schema = { type: 'object', properties: { path: { type: 'string', required: true } } }
    expect(found(schema)).toEqual([['/properties/path/required', 'required-in-property']])
  })

  it('reports `required: true` in a nested object property too', () => {
    const schema = {
      type: 'object',
      properties: { options: { type: 'object', properties: { depth: { type: 'integer', required: true } } } },
    }
    expect(found(schema)).toEqual([['/properties/options/properties/depth/required', 'required-in-property']])
  })

  it('rejects undefined parameters', () => {
    expect(found(undefined)).toEqual([['', 'parameters-missing']])
  })

  it('rejects JSON text instead of the object it encodes', () => {
    expect(found('{"type":"object","properties":{}}')).toEqual([['', 'parameters-json-text']])
    expect(found('not json')).toEqual([['', 'root-not-object']])
  })

  it('rejects non-object roots: null, arrays, numbers, boolean schemas', () => {
    for (const root of [null, [], 3, true, false]) expect(found(root)).toEqual([['', 'root-not-object']])
  })

  it('rejects `{}`', () => {
    expect(found({})).toEqual([['', 'root-empty']])
  })

  it('rejects a root with `properties` but no `type`', () => {
    expect(found({ properties: { a: { type: 'string' } } })).toEqual([['', 'root-type-missing']])
  })

  it('rejects a root type list such as ["object", "null"]', () => {
    expect(found({ type: ['object', 'null'], properties: {} })).toEqual([['/type', 'root-type-array']])
  })

  it('rejects a root type other than object', () => {
    expect(found({ type: 'string' })).toEqual([['/type', 'root-type-not-object']])
  })

  it('rejects a root `anyOf` without type', () => {
    const schema = { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object' }] }
    expect(found(schema)).toEqual([['', 'root-union']])
  })

  it('rejects `oneOf` beside a root `type: "object"`', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, oneOf: [{ required: ['a'] }, {}] }
    expect(found(schema)).toEqual([['/oneOf', 'root-union']])
  })

  it('rejects `enum` and `const` at the root', () => {
    expect(found({ type: 'object', const: {} })).toEqual([['/const', 'root-keyword']])
    expect(found({ type: 'object', enum: [{}] })).toEqual([['/enum', 'root-keyword']])
  })

  it('rejects an untyped root that is neither a schema nor a table', () => {
    expect(found({ additionalProperties: false })).toEqual([['', 'root-unrecognized']])
    expect(found({ name: 'x' })).toEqual([['', 'root-unrecognized']])
  })
})

describe('required', () => {
  it('must name declared properties', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] }
    expect(found(schema)).toEqual([['/required/1', 'required-undeclared']])
  })

  it('must not list a name twice', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'a'] }
    expect(found(schema)).toEqual([['/required', 'required-duplicate']])
  })

  it('must be an array of strings', () => {
    expect(found({ type: 'object', properties: {}, required: 'a' })).toEqual([
      ['/required', 'required-not-array'],
    ])
    expect(found({ type: 'object', properties: {}, required: [1] })).toEqual([
      ['/required', 'required-not-array'],
    ])
  })

  it('at the root is `required-not-array` when boolean (it is not inside a property)', () => {
    expect(found({ type: 'object', properties: {}, required: true })).toEqual([
      ['/required', 'required-not-array'],
    ])
  })
})

describe('keyword shapes at every depth', () => {
  it('rejects `type: "json"` and suggests what to write instead', () => {
    const result = checkToolParameters({ type: 'object', properties: { input: { type: 'json' } } })
    expect(result.violations.map((v) => [v.pointer, v.rule])).toEqual([
      ['/properties/input/type', 'type-unknown'],
    ])
    expect(result.violations[0]!.hint).toContain('omit `type`')
  })

  it('rejects a property written as a type name and suggests the schema', () => {
    const result = checkToolParameters({ type: 'object', properties: { path: 'string' } })
    expect(result.violations.map((v) => [v.pointer, v.rule])).toEqual([['/properties/path', 'keyword-type']])
    expect(result.violations[0]!.hint).toBe('write { "type": "string" }')
  })

  it('rejects an invalid `pattern`', () => {
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '[a-z' } } }
    expect(found(schema)).toEqual([['/properties/id/pattern', 'pattern-invalid']])
  })

  it('rejects an unresolved local `$ref` and accepts a resolvable one', () => {
    const defs = { Item: { type: 'string' } }
    const broken = { type: 'object', $defs: defs, properties: { a: { $ref: '#/$defs/Missing' } } }
    expect(found(broken)).toEqual([['/properties/a/$ref', 'ref-unresolved']])
    const fine = { type: 'object', $defs: defs, properties: { a: { $ref: '#/$defs/Item' } } }
    expect(found(fine)).toEqual([])
  })

  it('resolves `$ref` to `definitions`, to the root, and to an `$anchor`', () => {
    const schema = {
      type: 'object',
      definitions: { X: { type: 'integer' } },
      $defs: { Y: { $anchor: 'why', type: 'string' } },
      properties: { a: { $ref: '#/definitions/X' }, b: { $ref: '#' }, c: { $ref: '#why' } },
    }
    expect(found(schema)).toEqual([])
  })

  it('rejects a remote `$ref`', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json#/x' } } }
    expect(found(schema)).toEqual([['/properties/a/$ref', 'ref-remote']])
  })

  it('rejects an unknown `$schema` dialect', () => {
    expect(found({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toEqual([
      ['/$schema', 'schema-dialect-unknown'],
    ])
  })

  it('rejects an empty `enum`', () => {
    expect(found({ type: 'object', properties: { a: { enum: [] } } })).toEqual([
      ['/properties/a/enum', 'enum-empty'],
    ])
  })

  it("rejects draft-04's boolean exclusiveMinimum", () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    }
    expect(found(schema)).toEqual([['/properties/n/exclusiveMinimum', 'keyword-type']])
  })

  it('rejects a tuple `items` under 2020-12 and accepts it under draft-07', () => {
    const tuple = { type: 'array', items: [{ type: 'string' }] }
    expect(
      found({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { t: tuple },
      }),
    ).toEqual([['/properties/t/items', 'keyword-type']])
    expect(found({ type: 'object', properties: { t: tuple } })).toEqual([])
  })

  it('rejects duplicate `enum` values under draft-07, whose meta-schema (as ajv ships it) requires distinct ones', () => {
    const schema = {
      type: 'object',
      properties: {
        a: {
          enum: [
            { x: 1, y: 2 },
            { y: 2, x: 1 },
          ],
        },
      },
    }
    expect(found(schema)).toEqual([['/properties/a/enum', 'enum-duplicate']])
    expect(found({ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual([])
  })

  it('rejects a `dependencies` list that is not a list of distinct names', () => {
    expect(found({ type: 'object', dependencies: { a: ['b', 'b'] } })).toEqual([
      ['/dependencies/a', 'keyword-type'],
    ])
    expect(found({ type: 'object', dependencies: { a: [1] } })).toEqual([['/dependencies/a', 'keyword-type']])
    expect(found({ type: 'object', dependencies: { a: ['b'], c: { required: ['a'] } } })).toEqual([])
  })

  it('rejects `$id` with a fragment from 2019-09 on, where `$anchor` names places', () => {
    const idWithFragment = { type: 'object', $defs: { A: { $id: '#a' } } }
    expect(found(idWithFragment)).toEqual([])
    for (const dialect of [
      'https://json-schema.org/draft/2019-09/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      expect(found({ ...idWithFragment, $schema: dialect })).toEqual([['/$defs/A/$id', 'keyword-type']])
      expect(found({ type: 'object', $id: 'http://example.com/s#', $schema: dialect })).toEqual([])
    }
  })

  it('rejects an `$anchor` or `$dynamicAnchor` that is not a plain name', () => {
    const dialect = 'https://json-schema.org/draft/2020-12/schema'
    expect(found({ $schema: dialect, type: 'object', $defs: { A: { $anchor: '1a' } } })).toEqual([
      ['/$defs/A/$anchor', 'keyword-type'],
    ])
    expect(found({ $schema: dialect, type: 'object', $defs: { A: { $dynamicAnchor: '' } } })).toEqual([
      ['/$defs/A/$dynamicAnchor', 'keyword-type'],
    ])
    expect(found({ $schema: dialect, type: 'object', $defs: { A: { $anchor: '_a.b-1' } } })).toEqual([])
  })

  it('checks `$recursiveAnchor` by dialect: a boolean in 2019-09, an anchor name in 2020-12', () => {
    const in2019 = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' }
    const in2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }
    expect(found({ ...in2019, $recursiveAnchor: true })).toEqual([])
    expect(found({ ...in2019, $recursiveAnchor: 'a' })).toEqual([['/$recursiveAnchor', 'keyword-type']])
    expect(found({ ...in2020, $recursiveAnchor: 'a' })).toEqual([])
    expect(found({ ...in2020, $recursiveAnchor: true })).toEqual([['/$recursiveAnchor', 'keyword-type']])
  })

  it('checks `contentSchema` and `$vocabulary` shapes', () => {
    expect(found({ type: 'object', properties: { a: { contentSchema: 'x' } } })).toEqual([
      ['/properties/a/contentSchema', 'keyword-type'],
    ])
    expect(found({ type: 'object', $vocabulary: { 'https://example.com/v': 'yes' } })).toEqual([
      ['/$vocabulary', 'keyword-type'],
    ])
  })
})

describe('a root that is a $ref (zod-to-json-schema with a name)', () => {
  const named = {
    $ref: '#/definitions/Args',
    definitions: {
      Args: { type: 'object', properties: { q: { type: 'string' }, n: { $ref: '#/definitions/N' } } },
      N: { type: 'integer' },
    },
  }

  it('is refused in throw mode, with a pointer at the $ref', () => {
    expect(found(named)).toEqual([['/$ref', 'root-ref']])
    expect(found({ type: 'object', $ref: '#' })).toEqual([['/$ref', 'root-ref']])
  })

  it('is inlined in repair mode when it names a local object schema, keeping the definitions inner refs use', () => {
    const repaired = enforceToolParameters(named, VISION, { mode: 'repair' }) as Record<string, unknown>
    expect(repaired.type).toBe('object')
    expect(repaired.$ref).toBeUndefined()
    expect(repaired.properties).toEqual(named.definitions.Args.properties)
    expect(checkToolParameters(repaired).violations).toEqual([])
  })

  it('still throws in repair mode when the reference is to the root itself', () => {
    expect(() => enforceToolParameters({ $ref: '#' }, VISION, { mode: 'repair' })).toThrow(JsonSchemaError)
  })
})
