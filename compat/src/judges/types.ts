import type { JsonObject, ProfileId } from '@dsh-harden/tools'
import type { JsonDifference } from '../diff.ts'

/**
 * What a provider's own schema code does with one schema: leaves it as it is, changes it (listed), or refuses it
 * (its message).
 */
export type JudgeOutcome =
  | { readonly outcome: 'unchanged' }
  | { readonly outcome: 'changed'; readonly differences: readonly JsonDifference[] }
  | { readonly outcome: 'refused'; readonly message: string }

/** A provider's published schema code, run here on a wire schema. */
export interface Judge {
  readonly id: string
  /** The package, version and function that does the work, as SOURCES.md cites it. */
  readonly source: string
  /** The routes whose wire this code stands for. */
  readonly profiles: readonly ProfileId[]
  judge(schema: JsonObject, toolName: string, profile: ProfileId): Promise<JudgeOutcome>
}

export function refusal(error: unknown): JudgeOutcome {
  return { outcome: 'refused', message: error instanceof Error ? error.message : String(error) }
}

export function compared(differences: readonly JsonDifference[]): JudgeOutcome {
  return differences.length === 0 ? { outcome: 'unchanged' } : { outcome: 'changed', differences }
}
