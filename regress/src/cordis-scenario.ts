import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import DynamicCordisRunner from '@deepseek-ai/dsh-cordis-host-runner'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import * as ToolCordis from '@deepseek-ai/dsh-tool-cordis'
import { defineTool, type JsonValue } from '@deepseek-ai/dsh-tools'
import { HardenOverlay, type OverlayConfig } from '@dsh-harden/overlay'
import {
  loadAgentRuntime,
  message,
  seenByModel,
  setEnv,
  tearDown,
  toolResultOk,
  withTimeout,
} from './agent-session.ts'
import { type ScriptStep, startScriptedEndpoint } from './model-script.ts'

/**
 * DSH #1122 on a real DSH session: the real agent loop runs the real `dsh-tool-cordis` tools (over the real in-process
 * host runner) on the model outputs the report quotes, replayed by a scripted DeepSeek endpoint. What each call
 * returned is read back the way the model saw it: the `role:"tool"` message of the next request.
 *
 *  1. `cordis_inspect_query.input` (declared `type:'json'`, sent with no wire `type`) arrives as a JSON string:
 *     stock → `Host Cordis inspect Service.listService rejected input: "input" must be an object`.
 *  2. `cordis_define.plugin` (a `oneOf` of two objects) arrives as a JSON string:
 *     stock → `invalid arguments: "plugin" must match exactly one oneOf branch (matched 0)`.
 *  3. A `type:'string'` parameter whose value is JSON text must reach `execute` as that string, stock and hardened:
 *     normalization is schema-guided and never touches a string slot.
 * Each stringified call has a control with proper objects, which works stock.
 */
export interface ScenarioOptions {
  readonly hardened: boolean
  /** Bound on the whole turn; the run fails instead of hanging. Default 60 s. */
  readonly timeoutMs?: number
}

export interface ScenarioCall {
  /** Short label of the scripted call. */
  readonly call: string
  readonly tool: string
  /** The arguments JSON string the model sent, verbatim. */
  readonly argumentsSent: string
  /** The tool result was not an error. */
  readonly ok: boolean
  /** The tool result text the model saw in the next request, whole. */
  readonly result: string
}

export interface ScenarioResult {
  readonly hardened: boolean
  readonly calls: readonly ScenarioCall[]
  /** What `note_write`'s execute received, per call: the runtime `typeof args.text` and its value. */
  readonly noteWriteSaw: readonly { readonly typeofText: string; readonly text: unknown }[]
  /** The `parameters` each scenario tool was advertised with in the first request, as JSON. */
  readonly wireParameters: Readonly<Record<string, string>>
  /** Requests the endpoint received (one per model step). */
  readonly requests: number
  /** Request rejections by the endpoint's parameter rules, and `agent/error` failures, if any. */
  readonly errors: readonly string[]
}

const HOST_CODE = 'return { apply() {} }'
const STRING_INPUT = '{"service":"tools"}'
const STRING_PLUGIN = '{"kind":"new","idPrefix":"abc"}'
const NOTE_TEXT = '{"a":1}'

interface ScriptedCall {
  readonly call: string
  readonly tool: string
  readonly arguments: Readonly<Record<string, unknown>>
}

/** The scripted calls, in order; each is one model step, as a model retrying after each result would emit them. */
export const CORDIS_SCENARIO_CALLS: readonly ScriptedCall[] = [
  {
    call: 'inspect_query input as JSON string (#1122)',
    tool: 'cordis_inspect_query',
    arguments: { platform: 'host', provider: 'Service', method: 'listService', input: STRING_INPUT },
  },
  {
    call: 'inspect_query input as object (control)',
    tool: 'cordis_inspect_query',
    arguments: { platform: 'host', provider: 'Service', method: 'listService', input: { service: 'tools' } },
  },
  {
    call: 'define plugin as JSON string (#1122)',
    tool: 'cordis_define',
    arguments: {
      plugin: STRING_PLUGIN,
      name: 'probe',
      purpose: 'Probe that a stringified plugin reference is accepted.',
      code: { host: HOST_CODE },
    },
  },
  {
    call: 'define plugin as object (control)',
    tool: 'cordis_define',
    arguments: {
      plugin: { kind: 'new', idPrefix: 'abc' },
      name: 'control',
      purpose: 'Control: the same definition with a proper plugin object.',
      code: { host: HOST_CODE },
    },
  },
  {
    call: 'string param holding JSON text stays a string',
    tool: 'note_write',
    arguments: { text: NOTE_TEXT },
  },
]

const FINAL_TEXT = 'done'
const API_KEY_ENV = 'DSH_HARDEN_SCENARIO_KEY'
/** A small plugin with one first-party tool (real `defineTool`) whose `text` parameter is a plain string. */
function notePlugin(saw: { typeofText: string; text: unknown }[]) {
  return {
    name: 'dsh-harden-note',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.tools.register(
        defineTool({
          name: 'note_write',
          description: 'Write a short note. The text is stored verbatim.',
          parameters: { text: { type: 'string', required: true, description: 'The note text, verbatim.' } },
          output: {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                typeofText: { type: 'string', required: true },
                text: { type: 'json', required: true },
              },
            },
            render: (_args, value) => [
              {
                type: 'text',
                text: `typeof text = ${value.typeofText}; text = ${JSON.stringify(value.text)}`,
              },
            ],
          },
          async execute(args) {
            // `args.text` is declared a string; at runtime it is whatever survived normalization and validation.
            const text: JsonValue = args.text
            const seen = { typeofText: typeof text, text }
            saw.push(seen)
            return seen
          },
        }),
      )
    },
  }
}

/** Run the #1122 calls through one real agent turn, stock or with the overlay, and report what each call returned. */
export async function runCordisScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const home = mkdtempSync(join(tmpdir(), 'dsh-harden-cordis-'))
  // The deepseek adapter writes `$DSH_HOME/.anonymous-user-id` on the first request; keep it out of the user's home.
  const savedEnv = setEnv({ DSH_HOME: home, HOME: home, [API_KEY_ENV]: 'sk-scenario' })
  const script: ScriptStep[] = [
    ...CORDIS_SCENARIO_CALLS.map((call) => ({ toolCalls: [{ name: call.tool, arguments: call.arguments }] })),
    { text: FINAL_TEXT },
  ]
  const endpoint = await startScriptedEndpoint(script)
  const app = new Context()
  const errors: string[] = []
  const noteWriteSaw: { typeofText: string; text: unknown }[] = []
  try {
    await loadAgentRuntime(app, endpoint.baseURL, API_KEY_ENV)
    if (options.hardened) {
      // Before any tool plugin, so every registration goes through the overlay. `route` selects the wire
      // projection and the inverse argument normalization for the DeepSeek route.
      const overlayConfig: OverlayConfig = { route: 'deepseek' }
      await app.plugin(HardenOverlay, overlayConfig)
    }
    await app.plugin(DynamicCordisRunner)
    await app.plugin(ToolCordis)
    await app.plugin(notePlugin(noteWriteSaw))

    app.on('agent/error', ({ error }) => {
      errors.push(`agent/error: ${message(error)}`)
    })
    const agent = app.agentLoop.create(
      SessionId(`cordis-scenario-${options.hardened ? 'hardened' : 'stock'}`),
      { provider: 'deepseek-official', model: 'deepseek-v4-flash' },
      { cwd: home },
    )
    agent.followup(
      createUserMessage({
        content: [
          { type: 'text', text: 'Look up the tools service, then define a new plugin, then write a note.' },
        ],
        source: { kind: 'user' },
      }),
    )
    try {
      await withTimeout(agent.whenIdle(), timeoutMs, 'cordis scenario: the agent turn')
    } catch (error) {
      agent.cancel({ kind: 'disposed' })
      throw error
    }

    for (const request of endpoint.requests) {
      if (request.rejection !== undefined) errors.push(`request rejected: ${request.rejection}`)
    }
    const resultEvents = toolResultOk(agent.session.events)
    const seen = seenByModel(endpoint.requests)
    const calls = CORDIS_SCENARIO_CALLS.map((call, index): ScenarioCall => {
      const sent = endpoint.calls[index]
      const result = sent === undefined ? undefined : seen.get(sent.id)
      return {
        call: call.call,
        tool: call.tool,
        argumentsSent: sent?.arguments ?? JSON.stringify(call.arguments),
        ok: sent !== undefined && result !== undefined && resultEvents.get(sent.id) === true,
        result: result === undefined ? '(the model never saw a result for this call)' : result,
      }
    })
    const wireParameters: Record<string, string> = {}
    for (const tool of endpoint.requests[0]?.tools ?? []) {
      const name = tool.function?.name
      if (name !== undefined && CORDIS_SCENARIO_CALLS.some((call) => call.tool === name)) {
        wireParameters[name] = JSON.stringify(tool.function?.parameters)
      }
    }
    return {
      hardened: options.hardened,
      calls,
      noteWriteSaw,
      wireParameters,
      requests: endpoint.requests.length,
      errors,
    }
  } finally {
    await tearDown('cordis scenario', { app, endpoint, saved: savedEnv, home, errors })
  }
}
