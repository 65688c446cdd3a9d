import fc from 'fast-check'

type Schema = Record<string, unknown>

const key = fc.constantFrom('a', 'b', 'path', 'mode', 'limit', 'tags', 'options')

/**
 * Declared tool schemas of the shapes real servers list (zod and hand-written): typed leaves with the usual
 * constraints, enums, nested objects with required and optional keys, arrays, `anyOf` unions, nullable type lists and
 * untyped "any JSON" slots. `nullableOptional: false` leaves out optional fields that admit null themselves.
 */
export function declaredSchema(options: { readonly nullableOptional?: boolean } = {}): fc.Arbitrary<Schema> {
  const { node } = fc.letrec<{ node: Schema; object: Schema }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant({ type: 'string' }),
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 1, max: 4 }) }),
      fc.record({
        type: fc.constant('string'),
        format: fc.constantFrom('date-time', 'email', 'uri', 'uuid'),
      }),
      fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ type: fc.constant('number'), maximum: fc.integer({ min: 0, max: 100 }) }),
      fc.constant({ type: 'boolean' }),
      fc.record({ enum: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ type: fc.constant('integer'), enum: fc.constant([1, 2, 3]) }),
      fc.constant({ description: 'any JSON value' }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
      fc.record({ anyOf: fc.tuple(tie('node'), fc.constant({ type: 'null' })).map((pair) => [...pair]) }),
      fc.record({ type: fc.constant(['string', 'null']) }),
      tie('object'),
    ),
    object: fc
      .dictionary(key, tie('node'), { minKeys: 0, maxKeys: 4 })
      .chain((properties) =>
        fc
          .subarray(Object.keys(properties))
          .map((required) => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) })),
      ),
  }))
  const root = fc
    .dictionary(key, node, { minKeys: 0, maxKeys: 5 })
    .chain((properties) =>
      fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, required })),
    )
  if (options.nullableOptional !== false) return root
  return root.filter((schema) => !hasNullableOptional(schema))
}

function admitsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  const s = schema as Schema
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true
  if (Array.isArray(s.anyOf)) return s.anyOf.some(admitsNull)
  return !('type' in s) && !('enum' in s) && !('anyOf' in s)
}

function hasNullableOptional(schema: unknown): boolean {
  const stack: unknown[] = [schema]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null) continue
    const s = node as Schema
    const properties = (s.properties ?? {}) as Record<string, unknown>
    const required = new Set((s.required as string[] | undefined) ?? [])
    for (const [name, child] of Object.entries(properties)) {
      if (!required.has(name) && admitsNull(child)) return true
      stack.push(child)
    }
    if (s.items) stack.push(s.items)
    if (Array.isArray(s.anyOf)) stack.push(...s.anyOf)
  }
  return false
}
