import type { IncomingMessage, ServerResponse } from 'node:http'
import { Ajv } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { readBody, sendError, serveLocally, streamMessage } from './deepseek-wire.ts'

/**
 * A local stand-in for DeepSeek's `/chat/completions` that applies the rules DeepSeek applies to function
 * `parameters` before any model runs, and otherwise streams a one-word reply in DeepSeek's SSE format.
 *
 * Rule 1 (observed DeepSeek text, see shared/research/anchors-schema.md §3.5): the root must be `type: "object"`,
 *   else `Invalid schema for function '<name>': schema must be a JSON Schema of 'type: "object"', got 'type: <t>'`.
 *   The refusal quotes DeepSeek's wording.
 * Rule 2 (OpenAI-compatible behaviour; DeepSeek validates schemas, down to `pattern` regexes, even when not strict):
 *   the schema must be a valid JSON Schema. DeepSeek's own text for this class is not ours to reproduce (observed
 *   e.g. `null is not of type "array"`, `"<re>" is not a "regex"`); this endpoint's refusal keeps DeepSeek's
 *   `Invalid schema for function '<name>':` prefix and then says, in its own words, that the finding is ajv's
 *   meta-schema check ({@link LOCAL_WORDING}), so no report quotes ajv as if DeepSeek had said it.
 */
/** Marks the part of a rule-2 refusal that is this endpoint's (ajv's) wording, not DeepSeek's. */
export const LOCAL_WORDING = 'local endpoint, ajv meta-schema check; not DeepSeek’s wording'

export interface RecordedRequest {
  readonly body: string
  readonly tools: readonly { readonly name: string; readonly parametersJson: string }[]
}

export interface DeepSeekEndpoint {
  readonly baseURL: string
  readonly requests: RecordedRequest[]
  close(): Promise<void>
}

export interface FunctionTool {
  function?: { name?: string; parameters?: unknown }
}

const validators = { draft07: new Ajv(), draft2019: new Ajv2019(), draft2020: new Ajv2020() }

function metaValidator(schema: Record<string, unknown>): Ajv | Ajv2019 | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (dialect.includes('2020-12')) return validators.draft2020
  if (dialect.includes('2019-09')) return validators.draft2019
  return validators.draft07
}

export function rejectionOf(tool: FunctionTool): string | undefined {
  const name = tool.function?.name ?? ''
  const parameters = tool.function?.parameters
  const prefix = `Invalid schema for function '${name}'`
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return `${prefix}: schema must be a JSON Schema of 'type: "object"', got 'type: null'`
  }
  const schema = parameters as Record<string, unknown>
  if (schema.type !== 'object') {
    return `${prefix}: schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type ?? null)}'`
  }
  try {
    const validator = metaValidator(schema)
    if (validator.validateSchema(schema) !== true) {
      const first = validator.errors?.[0]
      return `${prefix}: [${LOCAL_WORDING}] ${first?.instancePath || '(root)'} ${first?.message ?? 'is not a valid JSON Schema'}`
    }
  } catch (error) {
    return `${prefix}: [${LOCAL_WORDING}] ${(error as Error).message}`
  }
  return undefined
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  requests: RecordedRequest[],
): Promise<void> {
  const body = await readBody(request)
  let parsed: { tools?: FunctionTool[] }
  try {
    parsed = JSON.parse(body)
  } catch {
    return sendError(response, 'Failed to deserialize the JSON body into the target type')
  }
  const tools = parsed.tools ?? []
  requests.push({
    body,
    tools: tools.map((tool) => ({
      name: tool.function?.name ?? '',
      parametersJson: JSON.stringify(tool.function?.parameters),
    })),
  })
  const rejection = tools.map(rejectionOf).find((message) => message !== undefined)
  if (rejection !== undefined) return sendError(response, rejection)
  streamMessage(response, 'pong')
}

export async function startDeepSeekEndpoint(): Promise<DeepSeekEndpoint> {
  const requests: RecordedRequest[] = []
  const server = await serveLocally((request, response) => handle(request, response, requests))
  return { baseURL: server.baseURL, requests, close: server.close }
}
