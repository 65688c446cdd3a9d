import { isJsonObject, type JsonObject, type JsonValue } from './json-value.ts'
import { KEYWORD_SHAPES } from './keywords.ts'

/** A schema nested in another, and the path from its parent to it. */
export interface Subschema {
  readonly path: readonly (string | number)[]
  readonly schema: JsonValue
}

/**
 * Every position in `node` where the vocabulary puts a schema, with its relative path. Values of the wrong container
 * type are skipped here; the shape check reports them. One traversal definition shared by every walker.
 */
export function subschemasOf(node: JsonObject): Subschema[] {
  const found: Subschema[] = []
  for (const [keyword, value] of Object.entries(node)) {
    const shape = KEYWORD_SHAPES.get(keyword)
    if (shape === 'schema' || (shape === 'schema-or-schema-list' && !Array.isArray(value))) {
      found.push({ path: [keyword], schema: value })
    } else if ((shape === 'schema-list' || shape === 'schema-or-schema-list') && Array.isArray(value)) {
      for (const [index, schema] of value.entries()) found.push({ path: [keyword, index], schema })
    } else if (
      (shape === 'schema-map' || shape === 'pattern-schema-map' || shape === 'dependencies') &&
      isJsonObject(value)
    ) {
      for (const [name, schema] of Object.entries(value)) {
        // `dependencies` maps a name to a schema or to a list of names; only the schemas are nested schemas.
        if (shape !== 'dependencies' || !Array.isArray(schema)) found.push({ path: [keyword, name], schema })
      }
    }
  }
  return found
}
