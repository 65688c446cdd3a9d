import type { IncomingMessage, ServerResponse } from 'node:http'
import { type FunctionTool, rejectionOf } from '../deepseek-endpoint.ts'
import { readBody, type StreamedCall, sendError, serveLocally, streamMessage } from '../deepseek-wire.ts'
import { type ChatMessage, contentText, type ScriptStep } from '../model-script.ts'

/**
 * The DeepSeek-compatible endpoint the real `dsh` app talks to in the app rows. It differs from model-script.ts in
 * one way the app needs: a headless turn also sends a session-title request (no `tools`, from DSH's
 * `dsh-session-title-first-prompt-llm`), at a time we do not control, so title requests are answered with a fixed
 * title and never spend a script step. Agent requests (those carrying `tools`) go through DeepSeek's parameter rules
 * (`rejectionOf` from deepseek-endpoint.ts, applied to every tool, all rejections recorded) and are then answered
 * with the next script step, or a final text once the script has run out.
 */
export interface AppRequest {
  readonly kind: 'agent' | 'title'
  readonly tools: readonly { readonly name: string; readonly parameters: unknown }[]
  /** The `role:"tool"` messages of this request, by call id: what the model saw of each earlier call. */
  readonly toolResults: readonly { readonly callId: string; readonly content: string }[]
  /** DeepSeek's 400 message for every tool whose parameters it refuses (the first one is what the client saw). */
  readonly rejections: readonly string[]
  /** The script step that answered it, if any. */
  readonly step: number | undefined
  /** The text of every message, in order, one per line: what the model was told (reminders included). */
  readonly messagesText: string
}

export interface AppEndpoint {
  readonly baseURL: string
  readonly requests: readonly AppRequest[]
  /** Only the agent requests (those that carried `tools`). */
  agentRequests(): readonly AppRequest[]
  close(): Promise<void>
}

export const APP_FINAL_TEXT = 'done'
export const APP_TITLE_TEXT = 'regress turn'

/** Reads one `/chat/completions` body into what the app rows look at. Pure; `step` is filled in by the caller. */
export function readAppRequest(body: unknown): Omit<AppRequest, 'step'> {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as {
    messages?: ChatMessage[]
    tools?: FunctionTool[]
  }
  const tools = Array.isArray(parsed.tools) ? parsed.tools : []
  const messages = Array.isArray(parsed.messages) ? parsed.messages : []
  return {
    kind: tools.length > 0 ? 'agent' : 'title',
    tools: tools.map((tool) => ({ name: tool.function?.name ?? '', parameters: tool.function?.parameters })),
    toolResults: messages
      .filter((message) => message.role === 'tool')
      .map((message) => ({ callId: message.tool_call_id ?? '', content: contentText(message.content) })),
    rejections: tools.map(rejectionOf).filter((message): message is string => message !== undefined),
    messagesText: messages.map((message) => contentText(message.content)).join('\n'),
  }
}

function resolveCalls(step: ScriptStep, stepIndex: number): StreamedCall[] {
  return (step.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${stepIndex}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }))
}

/**
 * Runs before a script step is answered (the app is waiting on the response): what a row does to the running
 * session at that point, e.g. edit the profile so DSH's hot reload adds a plugin mid-session.
 */
export type BeforeStep = (step: number) => Promise<void>

/** Starts the endpoint on 127.0.0.1 (a free port); pass `baseURL` to the app as `DEEPSEEK_BASE_URL`. */
export async function startAppEndpoint(
  script: readonly ScriptStep[] = [],
  beforeStep?: BeforeStep,
): Promise<AppEndpoint> {
  const requests: AppRequest[] = []
  let next = 0

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: unknown
    try {
      body = JSON.parse(await readBody(request))
    } catch {
      return sendError(response, 'Failed to deserialize the JSON body into the target type')
    }
    const read = readAppRequest(body)
    if (read.kind === 'title') {
      requests.push({ ...read, step: undefined })
      return streamMessage(response, APP_TITLE_TEXT)
    }
    const [rejection] = read.rejections
    const step = rejection === undefined && next < script.length ? next : undefined
    requests.push({ ...read, step })
    if (rejection !== undefined) return sendError(response, rejection)
    if (step === undefined) return streamMessage(response, APP_FINAL_TEXT)
    next++
    await beforeStep?.(step)
    streamMessage(response, script[step]?.text, resolveCalls(script[step] as ScriptStep, step))
  }

  const server = await serveLocally(handle)
  return {
    baseURL: server.baseURL,
    requests,
    agentRequests: () => requests.filter((request) => request.kind === 'agent'),
    close: server.close,
  }
}
