import type { IncomingMessage, ServerResponse } from 'node:http'
import { type FunctionTool, rejectionOf } from './deepseek-endpoint.ts'
import { readBody, type StreamedCall, sendError, serveLocally, streamMessage } from './deepseek-wire.ts'

/**
 * A scripted stand-in for DeepSeek's `POST /chat/completions`: each request is answered with the next step of a
 * script, streamed in DeepSeek's SSE format, so the real agent loop runs real tools on model output we choose (for
 * example, the exact tool calls a bug report quotes). Every request body is recorded.
 *
 * Before a step is spent, the request's `tools` go through the same parameter rules as `deepseek-endpoint.ts`
 * (`rejectionOf`); a rejected tool gets DeepSeek's 400 and the step stays unspent.
 * The stream shape is in deepseek-wire.ts.
 */
export interface ScriptedToolCall {
  /** Call id; defaults to `call_<step>_<index>`. */
  readonly id?: string
  readonly name: string
  /**
   * The arguments exactly as the model emits them. A string is sent verbatim (so malformed or stringified JSON can be
   * replayed); an object is sent as `JSON.stringify(arguments)`.
   */
  readonly arguments: string | Readonly<Record<string, unknown>>
}

/** One assistant message: text, tool calls, or both (text first, as DeepSeek streams it). */
export interface ScriptStep {
  readonly text?: string
  readonly toolCalls?: readonly ScriptedToolCall[]
}

export interface ChatMessage {
  readonly role: string
  readonly content?: unknown
  readonly tool_call_id?: string
  readonly tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[]
}

export interface ScriptedRequest {
  /** The raw request body. */
  readonly body: string
  readonly messages: readonly ChatMessage[]
  readonly tools: readonly FunctionTool[]
  /** The `role:"tool"` messages of this request: what the model sees of each earlier call, by call id. */
  readonly toolResults: readonly { readonly callId: string; readonly content: string }[]
  /** Index of the script step that answered it; `undefined` when rejected or when the script had run out. */
  readonly step: number | undefined
  /** DeepSeek's 400 message when a tool's parameters were rejected. */
  readonly rejection: string | undefined
}

export interface ScriptedEndpoint {
  readonly baseURL: string
  readonly requests: readonly ScriptedRequest[]
  /** How many script steps have been answered. */
  readonly stepsServed: number
  /** The call ids, in script order, with the arguments string each was sent with. */
  readonly calls: readonly {
    readonly step: number
    readonly id: string
    readonly name: string
    readonly arguments: string
  }[]
  close(): Promise<void>
}

export interface ScriptOptions {
  /** Split each tool call's arguments into chunks of this many characters, as real streams do. Default: one chunk. */
  readonly argumentChunkSize?: number
  /** Reply text once the script has run out (the turn then ends). */
  readonly exhaustedText?: string
}

export const SCRIPT_EXHAUSTED_TEXT = '(model script exhausted)'

/** The text of a chat message's `content` (string or parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('')
  }
  return content === undefined || content === null ? '' : JSON.stringify(content)
}

function resolveCalls(step: ScriptStep, stepIndex: number): StreamedCall[] {
  return (step.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${stepIndex}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }))
}

/** Start the endpoint on 127.0.0.1 (a free port). Point `dsh-llm-deepseek` at `baseURL` with `maxRetries: 0`. */
export async function startScriptedEndpoint(
  script: readonly ScriptStep[],
  options: ScriptOptions = {},
): Promise<ScriptedEndpoint> {
  const requests: ScriptedRequest[] = []
  const calls: { step: number; id: string; name: string; arguments: string }[] = []
  let next = 0

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request)
    let parsed: { messages?: ChatMessage[]; tools?: FunctionTool[] }
    try {
      parsed = JSON.parse(body)
    } catch {
      return sendError(response, 'Failed to deserialize the JSON body into the target type')
    }
    const messages = parsed.messages ?? []
    const tools = parsed.tools ?? []
    const toolResults = messages
      .filter((message) => message.role === 'tool')
      .map((message) => ({ callId: message.tool_call_id ?? '', content: contentText(message.content) }))
    const rejection = tools.map(rejectionOf).find((message) => message !== undefined)
    const stepIndex = rejection === undefined && next < script.length ? next : undefined
    requests.push({ body, messages, tools, toolResults, step: stepIndex, rejection })
    if (rejection !== undefined) return sendError(response, rejection)
    if (stepIndex === undefined)
      return streamMessage(response, options.exhaustedText ?? SCRIPT_EXHAUSTED_TEXT)
    next++
    const step = script[stepIndex] as ScriptStep
    const resolved = resolveCalls(step, stepIndex)
    for (const call of resolved) calls.push({ step: stepIndex, ...call })
    streamMessage(response, step.text, resolved, options.argumentChunkSize)
  }

  const server = await serveLocally(handle)
  return {
    baseURL: server.baseURL,
    requests,
    calls,
    get stepsServed() {
      return next
    },
    close: server.close,
  }
}
