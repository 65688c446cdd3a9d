import { BASELINE_PLUGIN, pluginFor, REGRESSION_CASES, type RegressionCase } from './cases.ts'
import { type DeepSeekEndpoint, startDeepSeekEndpoint } from './deepseek-endpoint.ts'
import { openSession, type PluginLoad, type TurnResult } from './dsh-session.ts'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Check, Observed, Row } from './row.ts'

/**
 * Registration rows: each case's plugin in a fresh DSH session (`dsh-session.ts`), stock and with the overlay, two
 * turns each against the local DeepSeek endpoint, which applies DeepSeek's schema rules (`deepseek-endpoint.ts`).
 * Both legs are judged the same way: did every turn of the session work.
 */
const GROUP = 'registration'
const TURNS = 2

export interface RegistrationRun {
  readonly load: PluginLoad
  readonly turns: readonly TurnResult[]
  /** The case tool's `parameters` as the DeepSeek serializer put them in each request body. */
  readonly wireParameters: readonly string[]
  /** What the session wrote to stderr (where a headless DSH run shows the overlay's notices). */
  readonly stderr: string
}

export async function observeRegistration(
  testCase: RegressionCase,
  endpoint: DeepSeekEndpoint,
  hardened: boolean,
): Promise<RegistrationRun> {
  const firstRequest = endpoint.requests.length
  const session = await openSession({
    baseURL: endpoint.baseURL,
    hardened,
    plugins: [BASELINE_PLUGIN, pluginFor(testCase)],
  })
  const turns: TurnResult[] = []
  try {
    for (let turn = 1; turn <= TURNS; turn++) turns.push(await session.turn(`turn ${turn}`))
  } finally {
    await session.dispose()
  }
  const wireParameters = endpoint.requests
    .slice(firstRequest)
    .flatMap((request) =>
      request.tools.filter((tool) => tool.name === testCase.tool).map((tool) => tool.parametersJson),
    )
  return { load: session.loads[1] ?? { ok: false }, turns, wireParameters, stderr: session.stderr() }
}

/** One leg: the session works when every turn works. The first failure and the load error are quoted in full. */
export function observedLeg(testCase: RegressionCase, run: RegistrationRun): Observed {
  const failures = run.turns.flatMap((turn) => (turn.ok ? [] : [turn.error]))
  const works = failures.length === 0
  const parts = [
    `${run.turns.length - failures.length}/${count(run.turns.length, 'turn')} ok`,
    `"${testCase.tool}" sent in ${run.wireParameters.length} of ${count(run.turns.length, 'request')}`,
  ]
  if (failures[0] !== undefined) parts.push(`first failure: ${failures[0]}`)
  if (!run.load.ok) parts.push(`plugin refused at load: ${run.load.error?.name}: ${run.load.error?.message}`)
  const notices = noticesAbout(testCase, run)
  if (notices.length > 0) parts.push(`stderr: ${notices.join('\n')}`)
  const outcome = !run.load.ok
    ? works
      ? 'plugin-refused-session-works'
      : 'load-error'
    : works
      ? 'works'
      : failures.length === run.turns.length
        ? 'every-turn-fails'
        : 'some-turns-fail'
  return { outcome, works, detail: parts.join('; ') }
}

const namesToolAndPlugin = (testCase: RegressionCase, text: string) =>
  text.includes(`"${testCase.tool}"`) && text.includes(`"${testCase.plugin}"`)

/** The stderr lines that name the case's tool. */
function noticesAbout(testCase: RegressionCase, run: RegistrationRun): string[] {
  return run.stderr.split('\n').filter((line) => line.includes(`"${testCase.tool}"`))
}

/**
 * The user learns which tool of which plugin was held back: a load error naming both (the overlay's `throw` mode), or
 * a stderr notice naming both (its default: the tool is withheld or repaired and the session starts).
 */
function userToldWhich(testCase: RegressionCase, run: RegistrationRun): Check {
  const error = run.load.error
  return {
    what: `the user is told, naming tool "${testCase.tool}" and plugin "${testCase.plugin}" (a load error or a stderr notice)`,
    ok:
      (!run.load.ok && error?.name === 'JsonSchemaError' && namesToolAndPlugin(testCase, error.message)) ||
      noticesAbout(testCase, run).some((line) => namesToolAndPlugin(testCase, line)),
  }
}

function unchangedOnWire(testCase: RegressionCase, runs: readonly RegistrationRun[]): Check {
  const declared = JSON.stringify(testCase.parameters)
  const sent = runs.flatMap((run) => run.wireParameters)
  return {
    what: `the tool's parameters reach the endpoint byte for byte as declared in all ${count(sent.length, 'request')} of both legs (${TURNS * runs.length} expected)`,
    ok: sent.length === TURNS * runs.length && sent.every((json) => json === declared),
  }
}

export function registrationRow(
  testCase: RegressionCase,
  stock: RegistrationRun,
  hardened: RegistrationRun,
): Row {
  const common = { id: testCase.id, group: GROUP, source: testCase.source }
  if (testCase.kind === 'valid')
    return {
      ...common,
      kind: 'guard',
      proves: `a tool with ${testCase.declares} works both ways and reaches the model unchanged`,
      stock: observedLeg(testCase, stock),
      hardened: observedLeg(testCase, hardened),
      checks: [unchangedOnWire(testCase, [stock, hardened])],
    }
  return {
    ...common,
    kind: 'fix',
    proves: `a plugin whose tool "${testCase.tool}" declares ${testCase.declares} no longer breaks every turn of the session, and the user is told which tool and why`,
    stock: observedLeg(testCase, stock),
    hardened: observedLeg(testCase, hardened),
    checks: [userToldWhich(testCase, hardened)],
  }
}

export async function run(_context: GroupContext): Promise<Row[]> {
  const endpoint = await startDeepSeekEndpoint()
  try {
    const rows: Row[] = []
    for (const testCase of REGRESSION_CASES) {
      const stock = await observeRegistration(testCase, endpoint, false)
      const hardened = await observeRegistration(testCase, endpoint, true)
      rows.push(registrationRow(testCase, stock, hardened))
    }
    return rows
  } finally {
    await endpoint.close()
  }
}
