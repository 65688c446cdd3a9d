import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import type { JsonObject } from '@dsh-harden/tools'
import { jsonDifferences } from '../diff.ts'
import { compared, type Judge, refusal } from './types.ts'

/**
 * The Anthropic SDK's schema transform (`@anthropic-ai/sdk@1.15.0`, `src/lib/transform-json-schema.ts`
 * `transformJSONSchema`). The SDK applies it on its strict / structured-output helpers, not to plain `input_schema`:
 * on the non-strict route its changes say what strict tool use would need, and its refusal ("must have a type
 * defined") what strict tool use cannot take.
 */
export const anthropicStrictJudge: Judge = {
  id: 'anthropic-sdk',
  source: '@anthropic-ai/sdk@1.15.0 src/lib/transform-json-schema.ts transformJSONSchema (strict helper)',
  profiles: ['anthropic'],
  async judge(schema: JsonObject) {
    try {
      return compared(jsonDifferences(schema, transformJSONSchema(schema)))
    } catch (error) {
      return refusal(error)
    }
  },
}
