import { runCordisScenario, type ScenarioCall, type ScenarioResult } from './cordis-scenario.ts'
import type { CaseRow, RunResult } from './run-case.ts'

/**
 * #1122 as report rows: the real agent loop and the real dsh-tool-cordis, a model that sends objects as JSON text,
 * stock against the overlay with `profile: 'deepseek'`. The JSON-text string row is the control for over-eager
 * parsing: it must stay a string both ways.
 */
interface CallExpectation {
  readonly id: string
  readonly source: string
  readonly label: string
  /** What the hardened result must show for the call to count as fixed. */
  readonly fixedWhen: (call: ScenarioCall, run: ScenarioResult) => boolean
}

const EXPECTATIONS: readonly CallExpectation[] = [
  {
    id: 'json-slot-as-string-1122',
    source: 'DSH #1122 cordis_inspect_query.input',
    label: 'inspect_query input as JSON string (#1122)',
    fixedWhen: (call) => call.ok && /"key":\s*"tools"/.test(call.result),
  },
  {
    id: 'oneof-as-string-1122',
    source: 'DSH #1122 cordis_define.plugin',
    label: 'define plugin as JSON string (#1122)',
    fixedWhen: (call) => call.ok && call.result.includes('Defined abc-'),
  },
  {
    id: 'json-text-string-stays-string',
    source: 'seed 002 §5: unconditional JSON.parse',
    label: 'string param holding JSON text stays a string',
    fixedWhen: (call, run) => call.ok && run.noteWriteSaw.every((seen) => seen.typeofText === 'string'),
  },
]

function outcomeOf(call: ScenarioCall | undefined): RunResult {
  if (call === undefined) return { outcome: 'call-fails', detail: 'the scripted call never reached the tool' }
  return {
    outcome: call.ok ? 'call-works' : 'call-fails',
    detail: call.result.replaceAll(/\s+/g, ' ').slice(0, 200),
  }
}

export async function cordisRows(): Promise<CaseRow[]> {
  const stock = await runCordisScenario({ hardened: false })
  const hardened = await runCordisScenario({ hardened: true })
  return EXPECTATIONS.map((expectation) => {
    const before = stock.calls.find((call) => call.call === expectation.label)
    const after = hardened.calls.find((call) => call.call === expectation.label)
    const stockBroken = expectation.id === 'json-text-string-stays-string' || before?.ok === false
    const fixed = stockBroken && after !== undefined && expectation.fixedWhen(after, hardened)
    return {
      id: expectation.id,
      source: expectation.source,
      stock: outcomeOf(before),
      hardened: outcomeOf(after),
      fixed,
    }
  })
}
