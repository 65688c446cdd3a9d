import type { JsonObject, JsonValue } from '../json/json-value.ts'
import type { ProfileRules } from './profiles.ts'

// Length and count bounds a route's grammar compiler cannot take (too large, or beside a pattern it compiles).

/** Keywords a grammar compiler turns into a bounded repetition (`x{min,max}` in GBNF). */
const REPETITION_BOUNDS: ReadonlySet<string> = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
])

/** A length or count bound above what the route's grammar compiler takes (`ProfileRules.repetitionLimit`). */
export function exceedsRepetition(rules: ProfileRules, keyword: string, value: JsonValue): boolean {
  return (
    rules.repetitionLimit !== undefined &&
    REPETITION_BOUNDS.has(keyword) &&
    typeof value === 'number' &&
    value > rules.repetitionLimit
  )
}

const LENGTHS = ['minLength', 'maxLength'] as const

/** A string node whose `pattern` or `format` the grammar compiles, beside a length bound it would drop. */
export function lengthBesideGrammar(rules: ProfileRules, node: JsonObject): boolean {
  return (
    !rules.lengthBesidePattern &&
    (node.pattern !== undefined || node.format !== undefined) &&
    LENGTHS.some((keyword) => node[keyword] !== undefined)
  )
}

/**
 * Moves the length bounds of a wire node that also sends a `pattern` or `format` into `spilled` where the route's
 * grammar cannot take both (vLLM's xgrammar compiles the pattern and drops the lengths, so vLLM refuses the schema).
 */
export function spillLengthsBesideGrammar(
  rules: ProfileRules,
  wire: JsonObject,
  spilled: Map<string, JsonValue>,
): void {
  if (!lengthBesideGrammar(rules, wire)) return
  for (const keyword of LENGTHS)
    if (wire[keyword] !== undefined) {
      spilled.set(keyword, wire[keyword]!)
      delete wire[keyword]
    }
}
