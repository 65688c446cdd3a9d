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
 * Sources (public reports, exact text):
 * - Unset optionals sent as `null` by OpenAI-style strict function calling: freelawproject/courtlistener-api-client
 *   PR #209 ("clients that send explicit `null` for unset optional params (a standard pattern for OpenAI-style strict
 *   function calling …) now get a hard `ToolError`"); ZenRows/zenrows-mcp PR #23 (a client "that serialises an unset
 *   optional as null rather than omitting the key — could not call a single tool … `-32602: expected string, received
 *   null`"); DSH #1149 (codex fills optional escalation fields). openai-strict and codex wires already widen optional
 *   fields the projection sees; this rule covers the slots it cannot widen (below a JSON-text slot, past `maxDepth`).
 * - Numbers sent as strings through Claude Code: VibiumDev/vibium issue #85 (`browser_sleep (MCP)(ms: "2000")` →
 *   "Error: ms is required and must be positive"; "LLMs often stringify numbers so both "2000" and 2000 should be
 *   handled").
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
}

/** The lenient readings a route gets (default: none). */
export function readingRules(profile: ProfileId): ReadingRules {
  return RULES[profile] ?? NO_READING_RULES
}
