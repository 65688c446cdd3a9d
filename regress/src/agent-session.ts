import { rmSync } from 'node:fs'
import type { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime from '@deepseek-ai/dsh-llm'
import * as LlmDeepseek from '@deepseek-ai/dsh-llm-deepseek'
import SessionStore from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'

/**
 * What the agent-loop scenarios (cordis-scenario.ts, escalation-scenario.ts) share: DSH's real agent runtime
 * pointed at a local scripted endpoint, a bounded wait, a throwaway environment, and reading back each call's result.
 */
export async function loadAgentRuntime(app: Context, baseURL: string, apiKeyEnv: string): Promise<void> {
  await app.plugin(LlmRuntime)
  await app.plugin(SessionStore)
  await app.plugin(SystemPrompt, { persona: '' })
  await app.plugin(ToolRuntime)
  await app.plugin(AgentRegistry)
  await app.plugin(AgentLoop, { agents: [] })
  await app.plugin(LlmDeepseek, {
    baseURL,
    apiKeyEnv,
    thinking: 'disabled',
    reasoningEffort: 'off',
    retryPolicy: { mode: 'normal', maxRetries: 0 },
  })
}

/** `promise`, or an error naming `what` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

export interface SavedEnv {
  readonly [key: string]: string | undefined
}

/** Sets the variables and returns what they were, for `restoreEnv`. */
export function setEnv(values: Record<string, string>): SavedEnv {
  const saved: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(values)) {
    saved[key] = process.env[key]
    process.env[key] = value
  }
  return saved
}

export function restoreEnv(saved: SavedEnv): void {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
}

/** Per call id: whether DSH recorded the tool result as a success. */
export function toolResultOk(events: readonly { type: string; data?: unknown }[]): Map<string, boolean> {
  const ok = new Map<string, boolean>()
  for (const event of events) {
    if (event.type !== 'tool/result') continue
    const block = (event.data as { message: { content: [{ toolCallId: string; isError?: boolean }] } })
      .message.content[0]
    ok.set(block.toolCallId, block.isError !== true)
  }
  return ok
}

/** Per call id: the result text the model was sent. */
export function seenByModel(
  requests: readonly { toolResults: readonly { callId: string; content: string }[] }[],
): Map<string, string> {
  const seen = new Map<string, string>()
  for (const request of requests)
    for (const result of request.toolResults) seen.set(result.callId, result.content)
  return seen
}

/**
 * A scenario's teardown, whatever happened: the app (bounded; a failure joins `errors`), the endpoint, the
 * environment, the throwaway home.
 */
export async function tearDown(
  scenario: string,
  parts: {
    app: Context
    endpoint: { close(): Promise<void> }
    saved: SavedEnv
    home: string
    errors: string[]
  },
): Promise<void> {
  await withTimeout(parts.app.fiber.dispose(), 10_000, `${scenario}: disposing the app`).catch(
    (error: unknown) => {
      parts.errors.push(message(error))
    },
  )
  await parts.endpoint.close()
  restoreEnv(parts.saved)
  rmSync(parts.home, { recursive: true, force: true })
}
