import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type FunctionTool, rejectionOf } from './deepseek-endpoint.ts'

/**
 * A scripted stand-in for DeepSeek's `POST /chat/completions`: each request is answered with the next step of a
 * script, streamed in DeepSeek's SSE format, so the real agent loop runs real tools on model output we choose (for
 * example, the exact tool calls a bug report quotes). Every request body is recorded.
 *
 * Before a step is spent, the request's `tools` go through the same parameter rules as `deepseek-endpoint.ts`
 * (`rejectionOf`); a rejected tool gets DeepSeek's 400 and the step stays unspent.
 *
 * Stream shape (the adapter needs every part, including `[DONE]`):
 *   text:       `delta: {role:'assistant', content}` … `finish_reason: 'stop'`
 *   tool calls: `delta.tool_calls: [{index, id, type:'function', function:{name, arguments}}]` … `finish_reason: 'tool_calls'`
 *   then a usage chunk (`choices: []`) and `data: [DONE]`.
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

function contentText(content: unknown): string {
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

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The same 400 JSON as `deepseek-endpoint.ts`' `sendError`. */
function sendError(response: ServerResponse, message: string): void {
  response.writeHead(400, { 'content-type': 'application/json' })
  response.end(
    JSON.stringify({
      error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
    }),
  )
}

function chunks(text: string, size: number | undefined): string[] {
  if (size === undefined || size <= 0 || text.length <= size) return [text]
  const parts: string[] = []
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size))
  return parts
}

interface ResolvedCall {
  readonly id: string
  readonly name: string
  readonly arguments: string
}

function resolveCalls(step: ScriptStep, stepIndex: number): ResolvedCall[] {
  return (step.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${stepIndex}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }))
}

function streamStep(
  response: ServerResponse,
  text: string | undefined,
  calls: readonly ResolvedCall[],
  options: ScriptOptions,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  const events: unknown[] = []
  const choice = (delta: unknown, finish: string | null) => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  events.push(choice({ role: 'assistant', content: text ?? '' }, null))
  calls.forEach((call, index) => {
    const [first = '', ...rest] = chunks(call.arguments, options.argumentChunkSize)
    events.push(
      choice(
        {
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: first } },
          ],
        },
        null,
      ),
    )
    for (const part of rest)
      events.push(choice({ tool_calls: [{ index, function: { arguments: part } }] }, null))
  })
  events.push(choice({}, calls.length > 0 ? 'tool_calls' : 'stop'))
  events.push({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })
  for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`)
  response.end('data: [DONE]\n\n')
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
      return streamStep(response, options.exhaustedText ?? SCRIPT_EXHAUSTED_TEXT, [], options)
    next++
    const step = script[stepIndex] as ScriptStep
    const resolved = resolveCalls(step, stepIndex)
    for (const call of resolved) calls.push({ step: stepIndex, ...call })
    streamStep(response, step.text, resolved, options)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500)
      response.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    calls,
    get stepsServed() {
      return next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
