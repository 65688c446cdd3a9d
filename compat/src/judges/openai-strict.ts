import type { JsonObject } from '@dsh-harden/tools'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { jsonDifferences } from '../diff.ts'
import { compared, type Judge, refusal } from './types.ts'

/**
 * openai-node's strict converter (`openai@7.59.0`, `src/lib/transform.ts` `toStrictJsonSchema`, what `zodFunction`
 * sends): it throws where strict Structured Outputs cannot keep a schema's meaning and rewrites what it can. A wire
 * schema fit for `openai-strict` leaves it nothing to do.
 */
export const openAiStrictJudge: Judge = {
  id: 'openai-node',
  source: 'openai@7.59.0 src/lib/transform.ts toStrictJsonSchema',
  profiles: ['openai-strict'],
  async judge(schema: JsonObject) {
    try {
      return compared(
        jsonDifferences(schema, toStrictJsonSchema(schema as Parameters<typeof toStrictJsonSchema>[0])),
      )
    } catch (error) {
      return refusal(error)
    }
  },
}
