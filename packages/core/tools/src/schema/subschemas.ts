import { inheritsEnumerableKeys, isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import { KEYWORD_SHAPES, type KeywordShape } from './keywords.ts'

/** A schema nested in another, and the path from its parent to it. */
export interface Subschema {
  readonly path: readonly (string | number)[]
  readonly schema: JsonValue
}

/**
 * Called for one schema nested in a node: `keyword` holds it, and `member` is its index or name inside that keyword's
 * list or map (`undefined` when the keyword's value is the schema itself).
 */
export type SubschemaVisitor = (
  schema: JsonValue,
  keyword: string,
  member: string | number | undefined,
) => void

/**
 * Visits every position of `node` where the vocabulary puts a schema, in document order. Values of the wrong
 * container type are skipped here; the shape check reports them. With `subschemasAt`, the one traversal definition
 * every walker shares.
 */
function forEachSubschema(node: JsonObject, visit: SubschemaVisitor): void {
  for (const keyword of Object.keys(node)) {
    const shape = KEYWORD_SHAPES.get(keyword)
    if (shape !== undefined) subschemasAt(keyword, shape, node[keyword]!, visit)
  }
}

/**
 * The schemas one keyword of a node holds (see `forEachSubschema`), for a walker that reads each keyword itself: the
 * shape check visits them with no allocation per nested schema.
 */
export function subschemasAt(
  keyword: string,
  shape: KeywordShape,
  value: JsonValue,
  visit: SubschemaVisitor,
): void {
  if (shape === 'schema' || (shape === 'schema-or-schema-list' && !Array.isArray(value))) {
    visit(value, keyword, undefined)
  } else if (shape === 'schema-list' || shape === 'schema-or-schema-list') {
    if (Array.isArray(value))
      for (let index = 0; index < value.length; index++) visit(value[index]!, keyword, index)
  } else if (
    (shape === 'schema-map' || shape === 'pattern-schema-map' || shape === 'dependencies') &&
    isJsonObject(value)
  ) {
    const inherited = inheritsEnumerableKeys()
    for (const name in value) {
      if (inherited && !Object.hasOwn(value, name)) continue
      const schema = value[name]!
      // `dependencies` maps a name to a schema or to a list of names; only the schemas are nested schemas.
      if (shape !== 'dependencies' || !Array.isArray(schema)) visit(schema, keyword, name)
    }
  }
}

/** Every schema nested in `node` with its relative path, as a list (see `forEachSubschema`). */
export function subschemasOf(node: JsonObject): Subschema[] {
  const found: Subschema[] = []
  forEachSubschema(node, (schema, keyword, member) => {
    found.push({ path: member === undefined ? [keyword] : [keyword, member], schema })
  })
  return found
}
