import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * DeepSeek's `/chat/completions` wire, as the local endpoints (deepseek-endpoint.ts, model-script.ts) speak it: the
 * 400 body for a rejected request, and a streamed assistant message in DeepSeek's SSE format.
 *
 * Stream shape (the adapter needs every part, including `[DONE]`):
 *   text:       `delta: {role:'assistant', content}` … `finish_reason: 'stop'`
 *   tool calls: `delta.tool_calls: [{index, id, type:'function', function:{name, arguments}}]` … `finish_reason: 'tool_calls'`
 *   then a usage chunk (`choices: []`) and `data: [DONE]`.
 */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** DeepSeek's 400 JSON for a request it refuses. */
export function sendError(response: ServerResponse, message: string): void {
  response.writeHead(400, { 'content-type': 'application/json' })
  response.end(
    JSON.stringify({
      error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
    }),
  )
}

export interface StreamedCall {
  readonly id: string
  readonly name: string
  readonly arguments: string
}

function chunks(text: string, size: number | undefined): string[] {
  if (size === undefined || size <= 0 || text.length <= size) return [text]
  const parts: string[] = []
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size))
  return parts
}

/**
 * Streams one assistant message: `text` (may be empty), then each call, its arguments split into chunks of
 * `argumentChunkSize` characters as real streams do (default: one chunk).
 */
export function streamMessage(
  response: ServerResponse,
  text: string | undefined,
  calls: readonly StreamedCall[] = [],
  argumentChunkSize?: number,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  const events: unknown[] = []
  const choice = (delta: unknown, finish: string | null) => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  events.push(choice({ role: 'assistant', content: text ?? '' }, null))
  calls.forEach((call, index) => {
    const [first = '', ...rest] = chunks(call.arguments, argumentChunkSize)
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

export interface LocalServer {
  readonly baseURL: string
  close(): Promise<void>
}

/** Serves `handle` on 127.0.0.1 (a free port); a handler that throws answers 500 with the error. */
export async function serveLocally(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<LocalServer> {
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
