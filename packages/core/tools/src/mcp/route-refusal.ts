import type { SchemaViolation } from '../check/violation.ts'
import { parsePointer } from '../json/json-pointer.ts'
import type { JsonObject } from '../json/json-value.ts'
import { checkProfileContract } from '../projection/profile-contract.ts'
import type { ProfileId } from '../projection/types.ts'
import { METADATA } from '../projection/vocabulary.ts'

/**
 * Routes known to take metadata keywords (`$schema`, `$id`, `$defs`, …) as sent: DeepSeek and OpenAI chat completions
 * (non-strict) and Codex. No source in PROFILES.md reports them refusing it; projection still drops it (a cleaner
 * wire). Anthropic is reported to refuse a draft-07 `$schema`, Gemini refuses unknown fields, DSH's own subset refuses
 * every keyword outside it, and for OpenAI strict mode no source says either way, so there it counts as a refusal.
 */
const TAKES_METADATA: ReadonlySet<ProfileId> = new Set(['deepseek', 'openai', 'codex'])

/**
 * Findings a route takes without an error but whose arguments come back wrong (PROFILES.md): Codex fills declared
 * optional fields with placeholders (#1149), DeepSeek has the model send an untyped slot as JSON text (#1122).
 */
const MISREAD: readonly { readonly profile: ProfileId; readonly finding: string }[] = [
  { profile: 'codex', finding: 'an optional field that does not admit null' },
  { profile: 'deepseek', finding: 'a slot without a type' },
  { profile: 'deepseek', finding: 'a slot without a type (`true`)' },
]

/** How a route meets a schema sent as it is. */
export interface RouteVerdict {
  /** Findings the route refuses: one of them fails every request that lists the tool. */
  readonly refusals: readonly SchemaViolation[]
  /** Taken without an error, but the arguments the model sends come back changed (a decoder puts them right). */
  readonly misreads: readonly SchemaViolation[]
  /** Taken as they are; projection still changes them on the wire (a dropped `$schema`). */
  readonly wireChanges: readonly SchemaViolation[]
}

/** The route's written contract (`checkProfileContract`) on a schema as declared, split by what the route does. */
export function judgeRoute(schema: JsonObject, profile: ProfileId): RouteVerdict {
  const refusals: SchemaViolation[] = []
  const metadataRefusals: SchemaViolation[] = []
  const misreads: SchemaViolation[] = []
  const wireChanges: SchemaViolation[] = []
  for (const finding of checkProfileContract(schema, profile)) {
    if (isMetadata(finding)) (TAKES_METADATA.has(profile) ? wireChanges : metadataRefusals).push(finding)
    else if (isMisread(finding, profile)) misreads.push(finding)
    else refusals.push(finding)
  }
  // Metadata last, so the first refusal a report shows is the most specific one.
  return { refusals: [...refusals, ...metadataRefusals], misreads, wireChanges }
}

function isMetadata(finding: SchemaViolation): boolean {
  if (finding.rule !== 'profile-keyword') return false
  const keyword = parsePointer(finding.pointer)?.at(-1)
  return keyword !== undefined && METADATA.has(keyword)
}

// `checkProfileContract` words every finding as `<profile>: <finding>`.
function isMisread(finding: SchemaViolation, profile: ProfileId): boolean {
  return MISREAD.some((m) => m.profile === profile && finding.message === `${profile}: ${m.finding}`)
}
