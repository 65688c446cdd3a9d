import { type JsonObject, toPointer } from '@dsh-harden/tools'
import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp'
import type { JsonDifference } from '../diff.ts'
import { profilesReached } from './reached.ts'
import { schemaNodes } from './schema-nodes.ts'
import { compared, type Judge, type JudgeOutcome, refusal } from './types.ts'

/** Annotations a grammar has no reason to carry: their absence from it is not a change of meaning. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
])
/** Keyword probes per schema: past this the judge says it stopped, so one huge schema costs a bounded time. */
export const MAX_PROBES = 200

// A llama.cpp server on its default port, as a DSH user reaches it through an OpenAI-compatible provider (a variable,
// not a literal: the route facts a placement reads may grow beyond `ModelRoute`'s fields of today).
const LOCAL_LLAMA_CPP = { provider: 'llama.cpp', model: 'local.gguf', baseUrl: 'http://127.0.0.1:8080/v1' }

let llama: Promise<Llama> | undefined
// The prebuilt CPU binary that comes as the npm optional dependency @node-llama-cpp/linux-x64: never a build, never a
// download, never a GPU probe.
const loadLlama = () =>
  (llama ??= getLlama({
    gpu: false,
    build: 'never',
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
    // A grammar llama.cpp's parser rejects comes back as an exception (the verdict); its log line would only repeat it.
    logger: () => {},
  }))

const shown = (value: unknown): string => {
  const text = JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

async function grammarOf(engine: Llama, schema: unknown): Promise<string> {
  return (await engine.createGrammarForJsonSchema(schema as never)).grammar
}

/**
 * node-llama-cpp 3.21.1, the local grammar engine on npm: `llama.createGrammarForJsonSchema` converts the schema to
 * GBNF in JavaScript (`getGbnfGrammarForGbnfJsonSchema`) and hands it to llama.cpp's own grammar parser in the native
 * addon, which is what constrains a local model's answer. It never needs a model file. `refused`: the converter or the
 * native parser threw. `changed`: the keywords the grammar does not depend on, found by the engine itself (the schema
 * without the keyword gives the same grammar), so a constraint the grammar cannot hold shows as `removed`; a keyword
 * whose absence it reads the same way shows too (`additionalProperties: false`, since its objects take no other key).
 */
export const nodeLlamaCppJudge: Judge = {
  id: 'node-llama-cpp',
  source:
    'node-llama-cpp@3.21.1 llama.createGrammarForJsonSchema (getGbnfGrammarForGbnfJsonSchema → llama.cpp grammar parser)',
  profiles: profilesReached([LOCAL_LLAMA_CPP]),
  async judge(schema: JsonObject): Promise<JudgeOutcome> {
    const engine = await loadLlama()
    let grammar: string
    try {
      grammar = await grammarOf(engine, schema)
    } catch (error) {
      return refusal(error)
    }
    const differences: JsonDifference[] = []
    let probes = 0
    for (const { node, path } of schemaNodes(schema))
      for (const key of Object.keys(node)) {
        if (ANNOTATIONS.has(key)) continue
        if (probes++ === MAX_PROBES) {
          differences.push({
            pointer: '',
            kind: 'changed',
            value: `(stopped after ${MAX_PROBES} keyword probes)`,
          })
          return compared(differences)
        }
        const without = structuredClone(schema)
        let target: Record<string, unknown> = without
        for (const segment of path) target = target[segment] as Record<string, unknown>
        delete target[key]
        const same = await grammarOf(engine, without).then(
          (other) => other === grammar,
          () => false,
        )
        if (same)
          differences.push({ pointer: toPointer([...path, key]), kind: 'removed', value: shown(node[key]) })
      }
    return compared(differences)
  },
}
