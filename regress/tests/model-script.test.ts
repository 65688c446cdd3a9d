import { afterEach, describe, expect, it } from 'vitest'
import { SCRIPT_EXHAUSTED_TEXT, type ScriptedEndpoint, startScriptedEndpoint } from '../src/model-script.ts'

let endpoint: ScriptedEndpoint | undefined

afterEach(async () => {
  await endpoint?.close()
  endpoint = undefined
})

const goodTool = {
  type: 'function',
  function: { name: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

function dataLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
}

describe('scripted DeepSeek endpoint', () => {
  it('streams each step in order: tool calls with finish_reason tool_calls, then text, then runs out', async () => {
    endpoint = await startScriptedEndpoint(
      [
        {
          toolCalls: [
            { name: 'echo', arguments: { text: 'hi' } },
            { id: 'c2', name: 'echo', arguments: '{"text":' },
          ],
        },
        { text: 'bye' },
      ],
      { argumentChunkSize: 4 },
    )
    const first = dataLines(await (await post(endpoint.baseURL, { messages: [], tools: [goodTool] })).text())
    expect(first.at(-1)).toBe('[DONE]')
    const events = first.slice(0, -1).map((line) => JSON.parse(line))
    const argumentsOf = (index: number) =>
      events
        .flatMap((event) => event.choices?.[0]?.delta?.tool_calls ?? [])
        .filter((call: { index: number }) => call.index === index)
        .map((call: { function: { arguments: string } }) => call.function.arguments)
        .join('')
    expect(argumentsOf(0)).toBe('{"text":"hi"}')
    expect(argumentsOf(1)).toBe('{"text":')
    expect(events.map((event) => event.choices?.[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls'])
    expect(events.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 11 } })
    expect(endpoint.calls.map((c) => c.id)).toEqual(['call_0_0', 'c2'])

    const toolMessage = { role: 'tool', tool_call_id: 'call_0_0', content: 'echoed:hi' }
    const second = dataLines(await (await post(endpoint.baseURL, { messages: [toolMessage] })).text())
    expect(JSON.parse(second[0] ?? '{}').choices[0].delta.content).toBe('bye')
    expect(endpoint.requests[1]?.toolResults).toEqual([{ callId: 'call_0_0', content: 'echoed:hi' }])

    const third = dataLines(await (await post(endpoint.baseURL, { messages: [] })).text())
    expect(JSON.parse(third[0] ?? '{}').choices[0].delta.content).toBe(SCRIPT_EXHAUSTED_TEXT)
    expect(endpoint.requests.map((r) => r.step)).toEqual([0, 1, undefined])
  })

  it("answers a request with a rejected tool with DeepSeek's 400 and does not spend a step", async () => {
    endpoint = await startScriptedEndpoint([{ text: 'ok' }])
    const bare = { type: 'function', function: { name: 'cmd', parameters: { command: { type: 'string' } } } }
    const response = await post(endpoint.baseURL, { messages: [], tools: [goodTool, bare] })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: {
        message: `Invalid schema for function 'cmd': schema must be a JSON Schema of 'type: "object"', got 'type: null'`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_request_error',
      },
    })
    expect(endpoint.stepsServed).toBe(0)
    expect(endpoint.requests[0]?.rejection).toContain("function 'cmd'")
  })
})
