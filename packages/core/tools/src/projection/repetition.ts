import type { JsonValue } from '../json-value.ts'
import type { ProfileRules } from './profiles.ts'

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
