import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, rejectionsOf, resultOk, resultsSeen, type Turn } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * A plugin whose tool, when called, deep-merges JSON it received into a fresh object with a merge that follows
 * `__proto__` (the prototype-pollution bug of many merge helpers), so `Object.prototype` gains `anyOf` and `enum`;
 * then it registers a second tool. (Assigned while DSH boots, the same keys make a dozen of stock DSH's own plugins
 * fail to load, so the pollution this row can compare happens mid-session.) Stock DSH reads schemas by their own keys
 * and serializes them with `JSON.stringify`: it sends the second tool as declared and runs it. The overlay's
 * projection used to read `anyOf` and `enum` on every node: it sent the second tool's parameters as one JSON-text
 * string, which DeepSeek refuses (issue 14: never worse than stock).
 */
const PLUGIN = 'acme-polluted'
const TOOL = 'acme_fetch_settings'
const LATE = 'acme_polluted_lookup'
/** With an any-JSON slot, which the DeepSeek route projects (to JSON text), so the overlay does project this tool. */
const PARAMETERS = {
  type: 'object',
  properties: { q: { type: 'string' }, filter: { description: 'any JSON filter' } },
  required: ['q'],
}
const RECEIVED = '{"theme":"dark","__proto__":{"anyOf":[{}],"enum":["x"]}}'

function pluginSource(): string {
  return `export const name = ${JSON.stringify(PLUGIN)}
export const inject = ['tools']
const output = { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] }
const tool = (name, execute) => ({ name, description: name, parameters: ${JSON.stringify(PARAMETERS)}, output, execute })
// A merge that walks every key JSON.parse made, "__proto__" included: it lands on Object.prototype.
const merge = (target, source) => {
  for (const key in source) {
    const value = source[key]
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) merge((target[key] ??= {}), value)
    else target[key] = value
  }
  return target
}
export function apply(ctx) {
  ctx.tools.register(tool(${JSON.stringify(TOOL)}, async (args) => {
    const settings = merge({}, JSON.parse(${JSON.stringify(RECEIVED)}))
    ctx.tools.register(tool(${JSON.stringify(LATE)}, async (later) => ({ got: later })))
    return { got: args, theme: settings.theme }
  }))
}
`
}

const ARGS = { q: 'weather', filter: { city: 'Paris' } }
const SCRIPT = [
  { toolCalls: [{ name: TOOL, arguments: { q: 'settings' } }] },
  { toolCalls: [{ name: LATE, arguments: ARGS }] },
]

/** The late tool's parameters exactly as the first agent request that carried it had them, as JSON text. */
function wireOf(turn: Turn): string | undefined {
  for (const request of turn.agentRequests) {
    const sent = request.tools.find((tool) => tool.name === LATE)
    if (sent !== undefined) return JSON.stringify(sent.parameters)
  }
  return undefined
}

function leg(turn: Turn): Observed {
  const seen = resultsSeen(turn.requests)
  const works =
    turn.run.exitCode === 0 &&
    rejectionsOf(turn).length === 0 &&
    resultOk(seen.get('call_0_0')) &&
    resultOk(seen.get('call_1_0'))
  return {
    outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : 'turn-fails',
    works,
    detail:
      `${describeTurn(turn)}; ${LATE} sent as ${wireOf(turn) ?? 'nothing'}; ` +
      `its call: ${seen.get('call_1_0') ?? 'never answered'}`,
  }
}

export async function pollutionRow(parts: AppRows): Promise<Row> {
  const dir = join(parts.home.root, 'acme-polluted')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'plugin.mjs')
  writeFileSync(file, pluginSource())
  const row = `    - id: acme-polluted\n      name: ${JSON.stringify(file)}\n`
  const stock = await parts.turn({ profile: parts.stockProfile, patch: insertLayer(row), script: SCRIPT })
  const hardened = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay') + row),
    script: SCRIPT,
  })
  const told = hardened.run.stderr.split('\n').filter((line) => line.includes('Object.prototype carries'))
  const checks: Check[] = [
    {
      what: `${LATE}, registered after the pollution, goes out byte for byte as stock sends it (${wireOf(stock) ?? 'stock sent nothing'})`,
      ok: wireOf(stock) !== undefined && wireOf(hardened) === wireOf(stock),
    },
    {
      what: `${LATE} gets its arguments as the model sent them`,
      ok: resultsSeen(hardened.requests).get('call_1_0')?.includes(JSON.stringify(ARGS)) === true,
    },
    {
      what: 'stderr says once that Object.prototype carries "anyOf", "enum" and schemas are sent as declared',
      ok: told.length === 1 && told[0]!.includes('"anyOf", "enum"') && told[0]!.includes('sent as declared'),
    },
  ]
  return {
    id: 'app-prototype-pollution',
    group: GROUP,
    kind: 'guard',
    proves:
      'a tool whose deep merge puts schema keywords on Object.prototype mid-session leaves later tools as stock sends them in the real dsh app',
    source: 'issue 14 (never worse than stock)',
    stock: leg(stock),
    hardened: leg(hardened),
    checks,
  }
}
