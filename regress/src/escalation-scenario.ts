import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SandboxBashExecutor from '@deepseek-ai/dsh-bash-sandbox'
import SandboxedFileSystem from '@deepseek-ai/dsh-fs-sandbox'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import SandboxPwshExecutor from '@deepseek-ai/dsh-pwsh-sandbox'
import LocalSandboxProvider from '@deepseek-ai/dsh-sandbox-local'
import SandboxPolicyService from '@deepseek-ai/dsh-sandbox-policy'
import { SessionId } from '@deepseek-ai/dsh-session'
import * as ShellEnv from '@deepseek-ai/dsh-shell-env'
import LocalSubprocessRuntime from '@deepseek-ai/dsh-subprocess-local'
import * as DshToolBash from '@deepseek-ai/dsh-tool-bash'
import * as DshToolFs from '@deepseek-ai/dsh-tool-fs'
import * as DshToolPwsh from '@deepseek-ai/dsh-tool-pwsh'
import ApprovalService from '@deepseek-ai/dsh-user-approval'
import type { EscalationConfig, SandboxMode } from '@dsh-harden/escalation'
import { HardenOverlay } from '@dsh-harden/overlay'
import HardenToolBash from '@dsh-harden/tool-bash'
import HardenToolFs from '@dsh-harden/tool-fs'
import HardenToolPwsh from '@dsh-harden/tool-pwsh'
import {
  loadAgentRuntime,
  message,
  seenByModel,
  setEnv,
  tearDown,
  toolResultOk,
  withTimeout,
} from './agent-session.ts'
import { type ScriptedToolCall, type ScriptStep, startScriptedEndpoint } from './model-script.ts'

/**
 * DSH #1149 on a real DSH session: the real agent loop runs DSH's real `bash`, `write`, `edit` (and `pwsh`) tools over the
 * real sandbox stack of feasibility §3 — `dsh-sandbox-policy`, `dsh-sandbox-local` (Landlock or bwrap),
 * `dsh-bash-sandbox`, `dsh-fs-sandbox`, `dsh-pwsh-sandbox` — with the real `dsh-user-approval` and an answerer hooked
 * into `approval/request` that records whether the user was asked. A scripted DeepSeek endpoint replays the calls.
 * Hardened adds `@dsh-harden/tool-bash`, `-tool-fs`, `-tool-pwsh` and the overlay (`route: 'deepseek'`) before
 * the tool plugins.
 */
export type ApprovalPolicy = 'ask' | 'never'

/** A call's arguments, or a function of the tool results the model has seen so far (a retry quoting a token). */
export type ScenarioArguments =
  | Readonly<Record<string, unknown>>
  | ((seen: readonly string[]) => Record<string, unknown>)

export interface EscalationCall {
  readonly tool: 'bash' | 'write' | 'edit' | 'pwsh'
  readonly arguments: ScenarioArguments
}

export interface EscalationScenarioOptions {
  readonly hardened: boolean
  /** The deployment's sandbox mode (`dsh-sandbox-policy` `mode`): every call's effective mode. */
  readonly mode: SandboxMode
  readonly approval: ApprovalPolicy
  /** Each inner list is one model step; several calls in one step are parallel calls. */
  readonly steps: readonly (readonly EscalationCall[])[]
  /** The hardened tool packages' config (denial-bound escalation). */
  readonly escalation?: EscalationConfig | undefined
  /** Files to create in the workspace before the turn (name → content), e.g. the file an `edit` call changes. */
  readonly files?: Readonly<Record<string, string>> | undefined
  /** Mount `dsh-tool-pwsh` over `dsh-pwsh-sandbox` instead of bash/fs (pwsh itself is not installed here). */
  readonly pwsh?: boolean | undefined
  readonly timeoutMs?: number | undefined
}

export interface EscalationCallResult {
  readonly tool: string
  readonly argumentsSent: string
  /** The tool result was not an error. */
  readonly ok: boolean
  /** What the model saw in the next request. */
  readonly result: string
}

export interface EscalationScenarioResult {
  readonly calls: readonly EscalationCallResult[]
  /** The reasons of the approval requests that reached the answerer (the user). */
  readonly userAsked: readonly string[]
  /** `approval/decided` outcomes in the session log (`never` decides without asking). */
  readonly decisions: readonly string[]
  /** Files in the workspace after the turn, with their content. */
  readonly files: Readonly<Record<string, string>>
  /** The wire `parameters` of each scenario tool in the first request. */
  readonly wireParameters: Readonly<Record<string, unknown>>
  readonly errors: readonly string[]
  readonly workspace: string
}

const API_KEY_ENV = 'DSH_HARDEN_ESCALATION_KEY'

/** Whether the kernel confines here: DSH's own Landlock launcher probe (the dependency `dsh-sandbox-local` uses). */
export async function landlockAvailable(): Promise<boolean> {
  try {
    const fromSandbox = createRequire(
      createRequire(import.meta.url).resolve('@deepseek-ai/dsh-sandbox-local'),
    )
    const launcher = (await import(fromSandbox.resolve('@deepseek-ai/node-addon-landlock-run'))) as {
      probe(path: string): unknown
      launcherPath(): string
    }
    const result = (await launcher.probe(launcher.launcherPath())) as unknown
    const level =
      typeof result === 'object' && result !== null ? (result as { level?: unknown }).level : result
    return (
      level === 'full' ||
      level === true ||
      (typeof result === 'object' && result !== null && !('error' in result))
    )
  } catch {
    return false
  }
}

/** Runs the calls through one real agent turn and reports what each returned and whether the user was asked. */
export async function runEscalationScenario(
  options: EscalationScenarioOptions,
): Promise<EscalationScenarioResult> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const home = mkdtempSync(join(tmpdir(), 'dsh-harden-escalation-'))
  const workspace = join(home, 'ws')
  const { mkdirSync, readdirSync, writeFileSync } = await import('node:fs')
  mkdirSync(workspace)
  for (const [name, content] of Object.entries(options.files ?? {}))
    writeFileSync(join(workspace, name), content)
  const saved = setEnv({ DSH_HOME: home, HOME: home, [API_KEY_ENV]: 'sk-scenario' })

  // Every scripted call resolves its arguments when its step is served, so a retry can quote a token the previous
  // result carried: JSON.stringify calls toJSON at that moment (model-script.ts serializes object arguments then).
  let endpointRef: { requests: readonly { toolResults: readonly { content: string }[] }[] } | undefined
  const seen = () => endpointRef?.requests.at(-1)?.toolResults.map((r) => r.content) ?? []
  const script: ScriptStep[] = options.steps.map((step) => ({
    toolCalls: step.map(
      (call): ScriptedToolCall => ({
        name: call.tool,
        arguments:
          typeof call.arguments === 'function'
            ? ({ toJSON: () => (call.arguments as (s: readonly string[]) => unknown)(seen()) } as Record<
                string,
                unknown
              >)
            : call.arguments,
      }),
    ),
  }))
  script.push({ text: 'done' })
  const endpoint = await startScriptedEndpoint(script)
  endpointRef = endpoint
  const app = new Context()
  const errors: string[] = []
  const userAsked: string[] = []
  try {
    await loadAgentRuntime(app, endpoint.baseURL, API_KEY_ENV)
    await app.plugin(LocalSubprocessRuntime)
    await app.plugin(ShellEnv)
    await app.plugin(SandboxPolicyService, { mode: options.mode, workspaceRoot: workspace })
    await app.plugin(LocalSandboxProvider)
    await app.plugin(options.pwsh ? SandboxPwshExecutor : SandboxBashExecutor)
    await app.plugin(SandboxedFileSystem)
    await app.plugin(ApprovalService, { policy: options.approval })
    app.on('approval/request', async (request: { reason?: string }) => {
      userAsked.push(request.reason ?? '')
      return 'allowed-once'
    })
    if (options.hardened) {
      await app.plugin(HardenOverlay, { route: 'deepseek' })
      await app.plugin(options.pwsh ? HardenToolPwsh : HardenToolBash, options.escalation)
      await app.plugin(HardenToolFs, options.escalation)
    }
    await app.plugin(options.pwsh ? DshToolPwsh : DshToolBash, { enableRunInBackground: false })
    await app.plugin(DshToolFs)
    app.on('agent/error', ({ error }: { error: unknown }) => {
      errors.push(`agent/error: ${message(error)}`)
    })

    const agent = app.agentLoop.create(
      SessionId(`escalation-${options.hardened ? 'hardened' : 'stock'}-${options.mode}`),
      { provider: 'deepseek-official', model: 'deepseek-v4-flash' },
      { cwd: workspace },
    )
    agent.followup(
      createUserMessage({ content: [{ type: 'text', text: 'Write the file.' }], source: { kind: 'user' } }),
    )
    try {
      await withTimeout(agent.whenIdle(), timeoutMs, 'escalation scenario: the agent turn')
    } catch (error) {
      agent.cancel({ kind: 'disposed' })
      throw error
    }
    for (const request of endpoint.requests)
      if (request.rejection !== undefined) errors.push(`request rejected: ${request.rejection}`)

    const okByCall = toolResultOk(agent.session.events)
    const decisions = agent.session.events
      .filter((event) => event.type === 'approval/decided')
      .map((event) => (event.data as { outcome: string }).outcome)
    const seen = seenByModel(endpoint.requests)
    const calls = endpoint.calls.map(
      (call): EscalationCallResult => ({
        tool: call.name,
        argumentsSent: call.arguments,
        ok: okByCall.get(call.id) === true,
        result: seen.get(call.id) ?? '(the model never saw a result for this call)',
      }),
    )
    const files: Record<string, string> = {}
    for (const name of readdirSync(workspace)) files[name] = readFileSync(join(workspace, name), 'utf8')
    const wireParameters: Record<string, unknown> = {}
    for (const tool of endpoint.requests[0]?.tools ?? []) {
      const name = tool.function?.name
      if (name === 'bash' || name === 'write' || name === 'edit' || name === 'pwsh')
        wireParameters[name] = tool.function?.parameters
    }
    return { calls, userAsked, decisions, files, wireParameters, errors, workspace }
  } finally {
    await tearDown('escalation scenario', { app, endpoint, saved: saved, home, errors })
  }
}
