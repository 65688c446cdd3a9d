import { toPointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.ts'
import { subschemasOf } from '../schema/subschemas.ts'
import { compileLinear, UnsupportedPatternError } from './pattern/linear-regexp.ts'

/** A `pattern` (or `patternProperties` key) of a declared schema that the linear-time engine refuses. */
export interface PatternProblem {
  /** JSON pointer to the keyword in the declared schema. */
  readonly pointer: string
  readonly pattern: string
  /** What it uses that the linear-time engine cannot run exactly as ECMAScript (lookaround, a backreference, ...). */
  readonly construct: string
  /** How to rewrite the pattern so that it runs. */
  readonly hint: string
}

/** Every pattern of `schema` the linear-time engine refuses, in one pass on an explicit stack. */
export function findUnsupportedPatterns(schema: JsonObject): PatternProblem[] {
  const found: PatternProblem[] = []
  const check = (pattern: string, pointer: string): void => {
    const engine = compileLinear(pattern)
    if (engine instanceof UnsupportedPatternError)
      found.push({ pointer, pattern, construct: engine.construct, hint: engine.hint })
  }
  // Pointers are built by appending to the parent's (string concatenation is not a copy per level in V8).
  const pending: [JsonValue, string][] = [[schema, '']]
  while (pending.length > 0) {
    const [node, pointer] = pending.pop()!
    if (!isJsonObject(node)) continue
    if (typeof node.pattern === 'string') check(node.pattern, `${pointer}/pattern`)
    if (isJsonObject(node.patternProperties))
      for (const key of Object.keys(node.patternProperties))
        check(key, `${pointer}/patternProperties${toPointer([key])}`)
    for (const sub of subschemasOf(node)) pending.push([sub.schema, pointer + toPointer(sub.path)])
  }
  return found
}
