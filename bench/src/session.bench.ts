import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cpuTimeWrapper, readCpuTime } from '@dsh-harden/testkit/app-cpu'
import { startPublishedRegistry } from '@dsh-harden/testkit/app-registry'
import { mcpClientRow, pluginPathRow } from '@dsh-harden/testkit/app-rows'
import {
  createDshHome,
  type DshApp,
  type DshHome,
  describeExit,
  ensureDshApp,
  pluginAdd,
  runHeadless,
  writeProfile,
  writeUserLayer,
} from '@dsh-harden/testkit/dsh-app'
import { scopeNpmrc } from '@dsh-harden/testkit/local-registry'
// The real-app endpoint and profile helpers live with the app rows of regress (private); reached by relative path so
// that bench and regress drive the app with one endpoint.
import { type AppRequest, startAppEndpoint } from '../../regress/src/app/app-endpoint.ts'
import { resultOk, resultsSeen } from '../../regress/src/app/app-session.ts'
import { appRows, insertLayer } from '../../regress/src/app/group-parts.ts'
import type { MeasuredOutput } from './gateway-report.ts'
import { simpleToolSpecs, type ToolSpec } from './generated-tools.ts'
import { alternate, type ComparisonResult, type Timed } from './harness.ts'
import { spread } from './stats.ts'

/**
 * One headless session of the real `dsh` app (testkit `ensureDshApp`, rc.8) with K extra tools, stock profile vs a
 * profile with `@dsh-harden/overlay` added by `dsh plugin add` from the local registry. The local DeepSeek-compatible
 * endpoint (regress's app endpoint) scripts a 6-request turn: 5 requests answered with one tool call each, then a final
 * text. Measured per session: the CPU of the `dsh` process and of the children it reaped (GNU time, testkit
 * `app-cpu`), the time per step (between consecutive agent requests, stamped by the endpoint as each arrives), and
 * start-up (spawn to the first agent request). Stock and overlay sessions alternate within one run (`alternate` in
 * harness.ts), one ratio per pair.
 */

const STOCK = 'stock'
const OVERLAY = 'overlay'
const OVERLAY_PACKAGE = '@dsh-harden/overlay'

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))
export const PLUGIN_FILE = join(FIXTURES, 'generated-tools-plugin.mjs')
export const SERVER_FILE = join(FIXTURES, 'generated-tools-server.ts')

/** Tool calls before the final answer: 5 calls + 1 answer = 6 agent requests, 5 steps between them. */
const CALLS = 5

/**
 * An extra tool with an any-JSON slot. The overlay on DeepSeek's route sends that slot as JSON text
 * (`type: "string"`); stock sends it untyped. Seeing that in the wire proves the overlay ran in the overlay leg.
 */
const PROBE: ToolSpec = {
  name: 'bench_probe',
  description: 'Probe: an any-JSON slot.',
  parameters: { type: 'object', properties: { payload: { description: 'any JSON' } } },
}

type Form = 'plugin' | 'mcp'

/** How the K tools reach DSH: a plugin that registers them, or a stdio MCP server behind DSH's dsh-mcp-client. */
export interface FormSpec {
  readonly form: Form
  readonly label: string
  /** The model-facing name of a generated tool. */
  readonly wireName: (name: string) => string
  /** The user-layer rows that bring the tools in, given the spec file. */
  readonly rows: (app: DshApp, specsFile: string) => string
}

const MCP_SERVER = 'gen'

/** Every child's output of a session run (truncated at the start of each run). */
export const SESSION_LOG = join(tmpdir(), 'dsh-harden-bench-session.log')

export const SESSION_FORMS: readonly FormSpec[] = [
  {
    form: 'plugin',
    label: 'plugin',
    wireName: (name) => name,
    rows: (_app, specs) => pluginPathRow('bench-tools', PLUGIN_FILE, { specs }),
  },
  {
    form: 'mcp',
    label: 'MCP server',
    wireName: (name) => `mcp__${MCP_SERVER}__${name}`,
    rows: (app, specs) =>
      mcpClientRow({ name: MCP_SERVER, command: join(app.binDir, 'node'), args: [SERVER_FILE, specs] }),
  },
]

/** What one session measured. */
export interface SessionRun {
  readonly cpuS: number
  readonly startupMs: number
  /** Mean of the 5 intervals between the 6 agent requests. */
  readonly stepMs: number
  readonly wallMs: number
  /** Tools in each agent request (every request carries the same set). */
  readonly toolsSent: number
  /** sha256 of the tool definitions sent, the probe left out: equal in both legs when the wire is the same. */
  readonly wireHash: string
  /** The probe's `payload` schema as sent. */
  readonly probePayload: unknown
}

/** The model's side of the turn: one call per step to the first 5 generated tools, then the final answer. */
export function turnScript(form: FormSpec, tools: readonly ToolSpec[]) {
  const calls = tools.slice(0, CALLS).map((tool, index) => ({
    toolCalls: [{ name: form.wireName(tool.name), arguments: { query: `entry ${index}`, limit: 5 } }],
  }))
  return [...calls, { text: 'done' }]
}

function fail(what: string, home: DshHome): never {
  throw new Error(`session.bench: ${what}. The app's output is in ${home.logFile}.`)
}

/** What every agent request of a session must show, or the session measured something else. */
function checkRequests(
  agent: readonly AppRequest[],
  form: FormSpec,
  tools: readonly ToolSpec[],
  home: DshHome,
) {
  if (agent.length !== CALLS + 1)
    fail(`expected ${CALLS + 1} agent requests, the endpoint saw ${agent.length}`, home)
  const rejected = agent.flatMap((request) => request.rejections)
  if (rejected.length > 0) fail(`the endpoint rejected tools: ${rejected[0]}`, home)
  for (const request of agent) {
    const sent = new Set(request.tools.map((tool) => tool.name))
    const missing = tools.find((tool) => !sent.has(form.wireName(tool.name)))
    if (missing !== undefined) fail(`an agent request lacks ${form.wireName(missing.name)}`, home)
  }
  const results = resultsSeen(agent)
  for (let call = 0; call < CALLS; call++) {
    const result = results.get(`call_${call}_0`)
    if (!resultOk(result)) fail(`call ${call} did not succeed: ${result ?? 'no result seen'}`, home)
  }
}

let runIndex = 0

async function runSession(
  app: DshApp,
  home: DshHome,
  profile: string,
  form: FormSpec,
  tools: readonly ToolSpec[],
): Promise<SessionRun> {
  const cpuFile = join(home.root, `session-${runIndex++}.cpu`)
  const stamps: number[] = []
  const endpoint = await startAppEndpoint(turnScript(form, tools), async () => {
    stamps.push(performance.now())
  })
  try {
    const started = performance.now()
    const run = await runHeadless(app, home, {
      profile,
      prompt: 'Run the scripted calls.',
      baseURL: endpoint.baseURL,
      wrapper: cpuTimeWrapper(cpuFile),
      timeoutMs: 600_000,
    })
    if (run.exitCode !== 0) fail(`dsh --profile ${profile} ended with ${describeExit(run)}`, home)
    const agent = endpoint.agentRequests()
    checkRequests(agent, form, tools, home)
    const cpu = readCpuTime(cpuFile)
    const first = agent[0]!
    const probe = first.tools.find((tool) => tool.name === form.wireName(PROBE.name))
    const wire = first.tools.filter((tool) => tool !== probe)
    return {
      cpuS: cpu.userS + cpu.systemS,
      startupMs: stamps[0]! - started,
      stepMs: (stamps[CALLS]! - stamps[0]!) / CALLS,
      wallMs: run.ms,
      toolsSent: first.tools.length,
      wireHash: createHash('sha256').update(JSON.stringify(wire)).digest('hex').slice(0, 12),
      probePayload: (probe?.parameters as { properties?: { payload?: unknown } } | undefined)?.properties
        ?.payload,
    }
  } finally {
    await endpoint.close()
  }
}

interface SessionSide {
  readonly label: string
  readonly profile: string
}

const ms = (value: number) => `${Math.round(value)} ms`

/** A per-pair ratio of one figure of the recorded runs, as the comparison table prints it. */
export function pairedResult(
  name: string,
  peer: readonly SessionRun[],
  subject: readonly SessionRun[],
  figureNs: (run: SessionRun) => number,
  labels: readonly [string, string],
  notes: readonly string[],
): ComparisonResult {
  const ratios = peer.map((run, index) => figureNs(subject[index]!) / figureNs(run))
  const added = peer.map((run, index) => figureNs(subject[index]!) - figureNs(run))
  return {
    name,
    peer: { label: labels[0], nsPerOp: spread(peer.map(figureNs)).median },
    subject: { label: labels[1], nsPerOp: spread(subject.map(figureNs)).median },
    ratio: spread(ratios),
    addedNsPerOp: spread(added),
    rounds: peer.length,
    opsPerSample: 1,
    notes,
  }
}

function readList(flag: string): number[] | undefined {
  const value = process.argv.find((arg) => arg.startsWith(`--${flag}=`))?.slice(flag.length + 3)
  return value === undefined ? undefined : value.split(',').map(Number)
}

export const SESSION_TOOL_COUNTS = [50, 500, 2000] as const

async function measureCase(
  app: DshApp,
  home: DshHome,
  form: FormSpec,
  count: number,
  pairs: number,
  overlayRows: string,
): Promise<ComparisonResult[]> {
  const tools = simpleToolSpecs(count)
  const specsFile = join(home.root, `tools-${count}.json`)
  writeFileSync(specsFile, JSON.stringify([...tools, PROBE]))
  const rows = form.rows(app, specsFile)
  writeUserLayer(home, STOCK, insertLayer(rows))
  writeUserLayer(home, OVERLAY, insertLayer(overlayRows + rows))
  const stock: SessionSide = { label: 'stock profile', profile: STOCK }
  const overlay: SessionSide = { label: 'overlay profile', profile: OVERLAY }
  const runs = new Map<SessionSide, SessionRun[]>([
    [stock, []],
    [overlay, []],
  ])
  const warmup = 1
  const loadBefore = loadavg()[0]!
  const time = async (side: SessionSide): Promise<Timed> => {
    const run = await runSession(app, home, side.profile, form, tools)
    runs.get(side)!.push(run)
    process.stderr.write(
      `  ${side.label}: CPU ${run.cpuS.toFixed(2)} s, start-up ${ms(run.startupMs)}, step ${ms(run.stepMs)}\n`,
    )
    return { ns: run.cpuS * 1e9, samples: [] }
  }
  const name = `${form.label}, ${count} tools`
  const { result } = await alternate(
    {
      name: `${name}: dsh CPU per session`,
      opsPerSample: 1,
      peer: stock,
      subject: overlay,
      warmup,
      rounds: pairs,
    },
    time,
  )
  const peerRuns = runs.get(stock)!.slice(warmup)
  const subjectRuns = runs.get(overlay)!.slice(warmup)
  const probeOf = (list: readonly SessionRun[]) => JSON.stringify(list[0]?.probePayload)
  const wireSame = peerRuns.every((run, index) => run.wireHash === subjectRuns[index]!.wireHash)
  const sent = (list: readonly SessionRun[]) => [...new Set(list.map((run) => run.toolsSent))].join('/')
  if (sent(peerRuns) !== sent(subjectRuns))
    fail(`stock sent ${sent(peerRuns)} tools per request and overlay ${sent(subjectRuns)}`, home)
  const notes = [
    `${count} generated tools + 1 probe; ${sent(peerRuns)} tools in every request of both legs (DSH's own included)`,
    `probe slot as sent: stock ${probeOf(peerRuns)}, overlay ${probeOf(subjectRuns)}`,
    `the other tool definitions on the wire are ${wireSame ? 'byte-identical' : 'NOT identical'} in both legs`,
    `load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; ${warmup} warm-up pair discarded`,
  ]
  const labels = [stock.label, overlay.label] as const
  return [
    { ...result, notes },
    pairedResult(`${name}: time per step`, peerRuns, subjectRuns, (run) => run.stepMs * 1e6, labels, []),
    pairedResult(
      `${name}: start-up to 1st request`,
      peerRuns,
      subjectRuns,
      (run) => run.startupMs * 1e6,
      labels,
      [],
    ),
    pairedResult(`${name}: session wall time`, peerRuns, subjectRuns, (run) => run.wallMs * 1e6, labels, []),
  ]
}

/**
 * `--sizes=50,500` and `--pairs=5` narrow or widen the run; `--forms=plugin` or `--forms=mcp` picks one form.
 * Run it under `flock /tmp/app.lock` where other real-app runs share the machine (README).
 */
export async function session(): Promise<MeasuredOutput> {
  const sizes = readList('sizes') ?? [...SESSION_TOOL_COUNTS]
  const pairs = readList('pairs')?.[0] ?? 3
  const formNames = process.argv
    .find((arg) => arg.startsWith('--forms='))
    ?.slice('--forms='.length)
    .split(',')
  const forms = SESSION_FORMS.filter((form) => formNames === undefined || formNames.includes(form.form))
  const app = await ensureDshApp()
  // The log outlives the temporary home, so a failed session can be read after the run.
  writeFileSync(SESSION_LOG, '')
  const home = createDshHome({ prefix: 'dsh-harden-bench-session-', logFile: SESSION_LOG })
  const registry = await startPublishedRegistry()
  try {
    writeProfile(home, STOCK)
    writeProfile(home, OVERLAY, { npmrc: scopeNpmrc(registry.registry) })
    const add = await pluginAdd(app, home, OVERLAY, [OVERLAY_PACKAGE])
    if (add.exitCode !== 0) fail(`dsh plugin add ${OVERLAY_PACKAGE} ended with ${describeExit(add)}`, home)
    // A package `dsh plugin add` made a bundle layer brings its own row; otherwise the row is written.
    const overlayRows = appRows(app, home, STOCK, OVERLAY).ours(OVERLAY_PACKAGE)
    const results: ComparisonResult[] = []
    for (const count of sizes) {
      for (const form of forms) {
        process.stderr.write(`running session: ${form.label}, ${count} tools…\n`)
        results.push(...(await measureCase(app, home, form, count, pairs, overlayRows)))
      }
    }
    return { results, sizes: [] }
  } finally {
    await registry.registry.close()
    home.close()
  }
}
