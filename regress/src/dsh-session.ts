import { Context } from '@deepseek-ai/cordis'
import LlmRuntime, { createUserMessage, type GenerateOptions, type StreamChunk } from '@deepseek-ai/dsh-llm'
import * as LlmDeepseek from '@deepseek-ai/dsh-llm-deepseek'
import SystemPrompt, { type PromptAssembly, renderPrompt } from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay } from '@dsh-harden/overlay'
import { captureStderr } from './stderr-capture.ts'

/**
 * One DSH session over the real published packages: the same calls agent-loop `step()` makes per turn
 * (`systemPrompt.assemble()`, `renderPrompt()`, `llm.stream()`), through the real DeepSeek adapter and serializer.
 */
export type CordisPlugin = Parameters<Context['plugin']>[0]

export interface SessionOptions {
  readonly baseURL: string
  readonly hardened: boolean
  readonly plugins: readonly CordisPlugin[]
}

export interface PluginLoad {
  readonly ok: boolean
  readonly error?: { readonly name: string; readonly message: string } | undefined
}

export interface Session {
  readonly loads: readonly PluginLoad[]
  /** What the session wrote to stderr from the first plugin load until `dispose` (e.g. the overlay's notices). */
  stderr(): string
  turn(text: string): Promise<TurnResult>
  dispose(): Promise<void>
}

export type TurnResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string }

const API_KEY_ENV = 'DSH_HARDEN_REGRESS_KEY'

function errorSummary(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'thrown', message: String(error) }
}

interface RuntimeServices {
  systemPrompt: { assemble(): Promise<PromptAssembly> }
  llm: { stream(options: GenerateOptions): AsyncIterable<StreamChunk> }
}

async function runTurn(app: RuntimeServices, text: string): Promise<TurnResult> {
  try {
    const assembly = await app.systemPrompt.assemble()
    let reply = ''
    for await (const chunk of app.llm.stream({
      provider: 'deepseek-official',
      model: 'deepseek-v4-flash',
      system: renderPrompt(assembly),
      tools: assembly.tools,
      messages: [createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } })],
    })) {
      if (chunk.type === 'text-delta') reply += chunk.text
      if (chunk.type === 'finish' && chunk.reason.kind === 'error')
        return { ok: false, error: chunk.reason.failure.message }
    }
    return { ok: true, text: reply }
  } catch (error) {
    const { name, message } = errorSummary(error)
    return { ok: false, error: `${name}: ${message}` }
  }
}

export async function openSession(options: SessionOptions): Promise<Session> {
  process.env[API_KEY_ENV] = 'sk-regress'
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  await app.plugin(LlmRuntime)
  await app.plugin(LlmDeepseek, {
    baseURL: options.baseURL,
    apiKeyEnv: API_KEY_ENV,
    thinking: 'disabled',
    reasoningEffort: 'off',
    retryPolicy: { mode: 'normal', maxRetries: 0 },
  })
  const stderr = captureStderr()
  const loads: PluginLoad[] = []
  try {
    if (options.hardened) await app.plugin(HardenOverlay)
    for (const plugin of options.plugins) {
      try {
        await app.plugin(plugin)
        loads.push({ ok: true })
      } catch (error) {
        loads.push({ ok: false, error: errorSummary(error) })
      }
    }
  } catch (error) {
    stderr.stop()
    throw error
  }
  const services = app as unknown as RuntimeServices
  return {
    loads,
    stderr: () => stderr.text(),
    turn: (text) => runTurn(services, text),
    dispose: async () => {
      try {
        await app.fiber.dispose()
      } finally {
        stderr.stop()
      }
    },
  }
}
