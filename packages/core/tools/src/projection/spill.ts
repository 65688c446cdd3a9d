import { type JsonValue, jsonText } from '../json/json-value.ts'

/**
 * Text for constraints a route cannot take as keywords. They stay in the declared schema for local validation; the
 * model still reads them, so it can respect them.
 */
export function spillText(spilled: ReadonlyMap<string, JsonValue>): string {
  const parts = [...spilled].map(([keyword, value]) => `${keyword}: ${jsonText(value)}`)
  return `Constraints: ${parts.join('; ')}.`
}

export function joinDescription(...parts: readonly (string | undefined)[]): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined && part !== '')
  if (present.length === 0) return undefined
  // Each part reads as its own sentence, so spilled text never runs on from the author's words.
  return present
    .map((part, i) => (i < present.length - 1 && !/[.!?:;。！？]$/.test(part) ? `${part}.` : part))
    .join(' ')
}
