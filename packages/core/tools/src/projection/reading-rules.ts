import type { ProfileId } from './types.ts'

/**
 * Lenient readings of arguments, per route, for what a route's models are reported to send that the declared schema
 * refuses. Each only ever changes a value the declared schema does not accept, so a valid call is never touched:
 *
 * - `nullAsAbsent`: `null` in an optional property whose declared schema does not admit `null` reads as "not
 *   provided" (the key is left out).
 * - `numericStrings`: a string spelling a JSON number, in a slot whose declared schema admits numbers but no string,
 *   reads as that number. A slot that admits strings is never touched.
 *
 * Sources: PROFILES.md, "Reading rules" (the reports, with their exact text), and compat/SOURCES.md §9.
 */
export interface ReadingRules {
  readonly nullAsAbsent: boolean
  readonly numericStrings: boolean
}

export const NO_READING_RULES: ReadingRules = Object.freeze({ nullAsAbsent: false, numericStrings: false })

const RULES: Readonly<Partial<Record<ProfileId, ReadingRules>>> = {
  'openai-strict': { nullAsAbsent: true, numericStrings: false },
  codex: { nullAsAbsent: true, numericStrings: false },
  anthropic: { nullAsAbsent: false, numericStrings: true },
  ollama: { nullAsAbsent: false, numericStrings: true },
}

/** The lenient readings a route gets (default: none). */
export function readingRules(profile: ProfileId): ReadingRules {
  return RULES[profile] ?? NO_READING_RULES
}
