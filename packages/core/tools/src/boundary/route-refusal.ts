import { parsePointer } from '../json-pointer.ts'
import type { JsonObject } from '../json-value.ts'
import { checkProfileContract } from '../projection/profile-contract.ts'
import type { ProfileId } from '../projection/types.ts'
import { METADATA } from '../projection/vocabulary.ts'
import type { SchemaViolation } from '../violation.ts'

/**
 * Routes known to take metadata keywords (`$schema`, `$id`, `$defs`, …) as sent: DeepSeek and OpenAI chat completions
 * (non-strict) and Codex. No source in PROFILES.md reports them refusing it; projection still drops it (a cleaner
 * wire). Anthropic is reported to refuse a draft-07 `$schema`, Gemini refuses unknown fields, DSH's own subset refuses
 * every keyword outside it, and for OpenAI strict mode no source says either way, so there it counts as a refusal.
 */
const TAKES_METADATA: ReadonlySet<ProfileId> = new Set(['deepseek', 'openai', 'codex'])

/** How a route meets a schema sent as it is: what makes it refuse the request, and what it takes but we change. */
export interface RouteVerdict {
  /** Findings the route refuses: one of them fails every request that lists the tool. */
  readonly refusals: readonly SchemaViolation[]
  /** Findings the route takes as they are; projection still changes them on the wire. */
  readonly wireChanges: readonly SchemaViolation[]
}

/** The route's written contract (`checkProfileContract`) on a schema as declared, split into refusals and the rest. */
export function judgeRoute(schema: JsonObject, profile: ProfileId): RouteVerdict {
  const refusals: SchemaViolation[] = []
  const wireChanges: SchemaViolation[] = []
  for (const finding of checkProfileContract(schema, profile))
    (isTolerated(finding, profile) ? wireChanges : refusals).push(finding)
  return { refusals, wireChanges }
}

function isTolerated(finding: SchemaViolation, profile: ProfileId): boolean {
  if (finding.rule !== 'profile-keyword' || !TAKES_METADATA.has(profile)) return false
  const keyword = parsePointer(finding.pointer)?.at(-1)
  return keyword !== undefined && METADATA.has(keyword)
}
