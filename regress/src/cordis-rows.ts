import { runCordisScenario, type ScenarioCall, type ScenarioResult } from './cordis-scenario.ts'
import type { GroupContext } from './group.ts'
import type { Observed, Row, RowKind } from './row.ts'

/**
 * #1122 as report rows: the real agent loop and the real dsh-tool-cordis, a model that sends objects as JSON text,
 * stock against the overlay with `profile: 'deepseek'` (`cordis-scenario.ts`). Each row judges both legs with one
 * predicate on what the tool returned to the model.
 */
const GROUP = 'cordis-1122'

interface CallRow {
  readonly id: string
  readonly kind: RowKind
  readonly source: string
  readonly proves: string
  /** The scripted call's label in `CORDIS_SCENARIO_CALLS`. */
  readonly call: string
  /** Whether the call did what the model asked, judged from the tool's answer (and what `execute` saw). */
  readonly works: (call: ScenarioCall, run: ScenarioResult) => boolean
}

const answersTheQuery = (call: ScenarioCall) => call.ok && /"key":\s*"tools"/.test(call.result)
const definesThePlugin = (call: ScenarioCall) => call.ok && call.result.includes('Defined abc-')

const CALL_ROWS: readonly CallRow[] = [
  {
    id: 'json-slot-as-string-1122',
    kind: 'fix',
    source: 'DSH #1122 cordis_inspect_query.input',
    proves:
      'an `input` object the model sends as JSON text reaches cordis_inspect_query as the object and the query answers',
    call: 'inspect_query input as JSON string (#1122)',
    works: answersTheQuery,
  },
  {
    id: 'oneof-as-string-1122',
    kind: 'fix',
    source: 'DSH #1122 cordis_define.plugin',
    proves:
      'a `plugin` object (a oneOf slot) the model sends as JSON text reaches cordis_define as the object and defines the plugin',
    call: 'define plugin as JSON string (#1122)',
    works: definesThePlugin,
  },
  {
    id: 'json-object-input-unchanged',
    kind: 'guard',
    source: 'control for DSH #1122 cordis_inspect_query.input',
    proves: 'the same query with a proper `input` object still answers',
    call: 'inspect_query input as object (control)',
    works: answersTheQuery,
  },
  {
    id: 'json-object-plugin-unchanged',
    kind: 'guard',
    source: 'control for DSH #1122 cordis_define.plugin',
    proves: 'the same definition with a proper `plugin` object still defines the plugin',
    call: 'define plugin as object (control)',
    works: definesThePlugin,
  },
  {
    id: 'json-text-string-stays-string',
    kind: 'guard',
    source: 'seed 002 §5: unconditional JSON.parse',
    proves:
      'a `type: "string"` parameter holding JSON text reaches execute as that string (no over-eager parsing)',
    call: 'string param holding JSON text stays a string',
    works: (call, run) =>
      call.ok &&
      run.noteWriteSaw.length > 0 &&
      run.noteWriteSaw.every((seen) => seen.typeofText === 'string'),
  },
]

const OK_RESULT_SHOWN = 300

/** An error result is quoted whole (it is the hint the model gets); a long successful result is shown by its start. */
function resultText(call: ScenarioCall): string {
  if (!call.ok) return `error: ${call.result}`
  const flat = call.result.replaceAll(/\s+/g, ' ')
  return flat.length <= OK_RESULT_SHOWN
    ? `result: ${flat}`
    : `result (${flat.length.toLocaleString('en-US')} characters, whitespace folded; starts): ${flat.slice(0, OK_RESULT_SHOWN)}`
}

function leg(row: CallRow, run: ScenarioResult): Observed {
  const call = run.calls.find((candidate) => candidate.call === row.call)
  if (call === undefined)
    return {
      outcome: 'call-missing',
      works: false,
      detail: `the scripted call never reached the tool; ${run.errors.join('; ')}`,
    }
  const works = run.errors.length === 0 && row.works(call, run)
  const errors = run.errors.length === 0 ? '' : `; scenario errors: ${run.errors.join('; ')}`
  return {
    outcome: call.ok ? (works ? 'call-works' : 'call-answers-wrong') : 'call-fails',
    works,
    detail: `arguments ${call.argumentsSent} → ${resultText(call)}${errors}`,
  }
}

export function cordisRowsFrom(stock: ScenarioResult, hardened: ScenarioResult): Row[] {
  return CALL_ROWS.map((row) => ({
    id: row.id,
    group: GROUP,
    kind: row.kind,
    proves: row.proves,
    source: row.source,
    stock: leg(row, stock),
    hardened: leg(row, hardened),
  }))
}

export async function run(_context: GroupContext): Promise<Row[]> {
  const stock = await runCordisScenario({ hardened: false })
  const hardened = await runCordisScenario({ hardened: true })
  return cordisRowsFrom(stock, hardened)
}
