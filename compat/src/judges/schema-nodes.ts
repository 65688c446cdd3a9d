/** A subschema of a JSON Schema and where it sits (path segments from the root). */
export interface SchemaNode {
  readonly node: Record<string, unknown>
  readonly path: readonly (string | number)[]
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// Keywords whose value is one schema, a list of schemas, or a map of schemas (the places a schema nests).
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
]
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']

/** Every subschema of `schema` that is an object, root first, in one pass with its own stack. */
export function* schemaNodes(schema: unknown): Generator<SchemaNode> {
  const stack: { node: unknown; path: readonly (string | number)[] }[] = [{ node: schema, path: [] }]
  while (stack.length > 0) {
    const { node, path } = stack.pop()!
    if (!isRecord(node)) continue
    yield { node, path }
    for (const key of ONE) if (isRecord(node[key])) stack.push({ node: node[key], path: [...path, key] })
    for (const key of LIST) {
      const list = node[key]
      if (Array.isArray(list))
        for (const [index, child] of list.entries()) stack.push({ node: child, path: [...path, key, index] })
    }
    for (const key of MAP) {
      const map = node[key]
      if (isRecord(map))
        for (const [name, child] of Object.entries(map))
          stack.push({ node: child, path: [...path, key, name] })
    }
  }
}
