import type { ProfileId } from '@dsh-harden/tools'
import { aiSdkGoogleJudge } from './ai-sdk-google.ts'
import { anthropicStrictJudge } from './anthropic-strict.ts'
import { bedrockJudge } from './bedrock.ts'
import { geminiSdkJudge } from './gemini-sdk.ts'
import { mistralJudge } from './mistral.ts'
import { nodeLlamaCppJudge } from './node-llama-cpp.ts'
import { openAiStrictJudge } from './openai-strict.ts'
import { piAiJudge } from './pi-ai.ts'
import { reportedErrorsJudge } from './reported-errors.ts'
import type { Judge } from './types.ts'

export type { Judge, JudgeOutcome } from './types.ts'

/**
 * Every provider's own schema code that installs from npm and runs here (SOURCES.md says what each one enforces), each
 * on the routes it stands for (a judge whose routes DSH places in no column runs nowhere: the report lists it as not
 * run), then pi-ai (what DSH's pi-ai adapter does to the schema on its way out), then the probes for refusals the providers'
 * APIs are reported to make.
 */
export const JUDGES: readonly Judge[] = [
  openAiStrictJudge,
  anthropicStrictJudge,
  geminiSdkJudge,
  aiSdkGoogleJudge,
  mistralJudge,
  bedrockJudge,
  nodeLlamaCppJudge,
  piAiJudge,
  reportedErrorsJudge,
]

/** The judges that stand for `profile`'s wire. */
export function judgesFor(profile: ProfileId): readonly Judge[] {
  return JUDGES.filter((judge) => judge.profiles.includes(profile))
}
