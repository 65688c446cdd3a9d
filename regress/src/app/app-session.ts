import {
  type ChildRun,
  type DshApp,
  type DshHome,
  type HeadlessOptions,
  runHeadless,
  writeUserLayer,
} from '@dsh-harden/testkit/dsh-app'
import type { ScriptStep } from '../model-script.ts'
import { type AppRequest, type BeforeStep, startAppEndpoint } from './app-endpoint.ts'

/**
 * One headless turn of the real app, observed: the profile's user layer is (re)written, a fresh endpoint answers with
 * `script`, `dsh --profile <p> "<prompt>"` runs to exit, and what the endpoint recorded comes back with the run.
 */
export interface Turn {
  readonly run: ChildRun
  readonly requests: readonly AppRequest[]
  readonly agentRequests: readonly AppRequest[]
}

export interface TurnSpec {
  readonly profile: string
  /** The profile's user layer rows (YAML list items, after the `hmr` row); `undefined` keeps the file as it is. */
  readonly patch: string | undefined
  readonly script?: readonly ScriptStep[]
  readonly prompt?: string
  readonly patches?: HeadlessOptions['patches']
  readonly env?: HeadlessOptions['env']
  readonly beforeStep?: BeforeStep
}

export async function runTurn(app: DshApp, home: DshHome, spec: TurnSpec): Promise<Turn> {
  if (spec.patch !== undefined) writeUserLayer(home, spec.profile, spec.patch)
  const endpoint = await startAppEndpoint(spec.script ?? [], spec.beforeStep)
  try {
    const run = await runHeadless(app, home, {
      profile: spec.profile,
      prompt: spec.prompt ?? 'Run the scripted calls.',
      baseURL: endpoint.baseURL,
      patches: spec.patches,
      env: spec.env,
    })
    return { run, requests: [...endpoint.requests], agentRequests: endpoint.agentRequests() }
  } finally {
    await endpoint.close()
  }
}

/** Per call id: the tool result text the model was sent (the last request that carried it wins). */
export function resultsSeen(requests: readonly AppRequest[]): Map<string, string> {
  const seen = new Map<string, string>()
  for (const request of requests)
    for (const result of request.toolResults) seen.set(result.callId, result.content)
  return seen
}

/**
 * Whether a tool result is a success as DSH presents it to the model: the agent loop renders a failed call as text
 * starting with `Error:` (dsh-agent-loop's tool-result rendering), a success never does.
 */
export function resultOk(content: string | undefined): boolean {
  return content !== undefined && !content.startsWith('Error:')
}

/** Every DeepSeek rejection the endpoint sent back during the turn, deduplicated. */
export function rejectionsOf(turn: Turn): string[] {
  return [...new Set(turn.agentRequests.flatMap((request) => request.rejections))]
}

/** The names of the tools any agent request of the turn advertised (a session can gain tools mid-turn). */
export function toolsSent(turn: Turn): string[] {
  return [...new Set(turn.agentRequests.flatMap((request) => request.tools.map((tool) => tool.name)))]
}

/** A turn as one line of evidence: exit, requests, rejections. Never carries stderr (that goes to the log). */
export function describeTurn(turn: Turn): string {
  const exit = turn.run.timedOut
    ? `timed out after ${Math.round(turn.run.ms)} ms`
    : `dsh exit ${turn.run.exitCode}`
  const rejected = rejectionsOf(turn)
  const agent = turn.agentRequests.length
  return (
    `${exit}; ${agent} agent request${agent === 1 ? '' : 's'}` +
    (rejected.length > 0 ? `, rejected by the endpoint: ${rejected.join(' | ')}` : ', none rejected')
  )
}
