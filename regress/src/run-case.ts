import { BASELINE_PLUGIN, pluginFor, type RegressionCase } from './cases.ts'
import type { DeepSeekEndpoint } from './deepseek-endpoint.ts'
import { openSession, type PluginLoad, type TurnResult } from './dsh-session.ts'

/** Session outcomes for registration cases, call outcomes for argument cases, schema outcomes for route contracts. */
export type Outcome =
  | 'works'
  | 'every-turn-fails'
  | 'some-turns-fail'
  | 'load-error'
  | 'call-works'
  | 'call-fails'
  | 'accepted'
  | 'rejected'
  // Escalation rows (escalation-rows.ts): the call went to the user for approval, or was refused without running.
  | 'call-asks-approval'
  | 'call-refused'
  // Gateway row (gateway-rows.ts): MCP server processes started at plugin activation, or none.
  | 'servers-started'
  | 'no-servers-started'

export interface RunResult {
  readonly outcome: Outcome
  readonly detail: string
}

export interface CaseRow {
  readonly id: string
  readonly source: string
  readonly stock: RunResult
  readonly hardened: RunResult
  readonly fixed: boolean
}

const TURNS = 2

interface RunObservation {
  readonly result: RunResult
  readonly load: PluginLoad
  readonly turns: readonly TurnResult[]
  /** The case tool's `parameters` as the DeepSeek serializer put them in each request body. */
  readonly wireParameters: readonly string[]
}

function clip(text: string, length = 300): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text
}

function summarize(load: PluginLoad, turns: readonly TurnResult[]): RunResult {
  const failures = turns.flatMap((turn) => (turn.ok ? [] : [turn.error]))
  const turnText = `${turns.length - failures.length}/${turns.length} turns ok`
  if (!load.ok) {
    return {
      outcome: 'load-error',
      detail: clip(`${turnText}; plugin failed at load: ${load.error?.name}: ${load.error?.message}`),
    }
  }
  if (failures.length === 0) return { outcome: 'works', detail: turnText }
  const outcome = failures.length === turns.length ? 'every-turn-fails' : 'some-turns-fail'
  return { outcome, detail: clip(`${turnText}; ${failures[0]}`) }
}

async function observe(
  testCase: RegressionCase,
  endpoint: DeepSeekEndpoint,
  hardened: boolean,
): Promise<RunObservation> {
  const firstRequest = endpoint.requests.length
  const session = await openSession({
    baseURL: endpoint.baseURL,
    hardened,
    plugins: [BASELINE_PLUGIN, pluginFor(testCase)],
  })
  const turns: TurnResult[] = []
  for (let turn = 1; turn <= TURNS; turn++) turns.push(await session.turn(`turn ${turn}`))
  await session.dispose()
  const load = session.loads[1] ?? { ok: false }
  const wireParameters = endpoint.requests
    .slice(firstRequest)
    .flatMap((request) =>
      request.tools.filter((tool) => tool.name === testCase.tool).map((tool) => tool.parametersJson),
    )
  return { result: summarize(load, turns), load, turns, wireParameters }
}

/** The overlay's load error must say which tool and which plugin, and the rest of the session must keep working. */
function failsLoudlyAtLoad(testCase: RegressionCase, run: RunObservation): boolean {
  const message = run.load.error?.message ?? ''
  return (
    run.result.outcome === 'load-error' &&
    run.load.error?.name === 'JsonSchemaError' &&
    message.includes(`"${testCase.tool}"`) &&
    message.includes(`"${testCase.plugin}"`) &&
    run.turns.every((turn) => turn.ok)
  )
}

function unchangedOnWire(testCase: RegressionCase, stock: RunObservation, hardened: RunObservation): boolean {
  const declared = JSON.stringify(testCase.parameters)
  const sent = [...stock.wireParameters, ...hardened.wireParameters]
  return sent.length === 2 * TURNS && sent.every((json) => json === declared)
}

export async function runCase(testCase: RegressionCase, endpoint: DeepSeekEndpoint): Promise<CaseRow> {
  const stock = await observe(testCase, endpoint, false)
  const hardened = await observe(testCase, endpoint, true)
  const fixed =
    testCase.kind === 'broken'
      ? stock.result.outcome !== 'works' && failsLoudlyAtLoad(testCase, hardened)
      : stock.result.outcome === 'works' &&
        hardened.result.outcome === 'works' &&
        unchangedOnWire(testCase, stock, hardened)
  const hardenedResult =
    testCase.kind === 'valid' && fixed
      ? { ...hardened.result, detail: `${hardened.result.detail}; parameters byte-for-byte as declared` }
      : hardened.result
  return { id: testCase.id, source: testCase.source, stock: stock.result, hardened: hardenedResult, fixed }
}
