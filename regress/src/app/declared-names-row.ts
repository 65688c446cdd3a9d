import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, resultsSeen, type Turn, toolsSent } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * A policy written for a tool's declared name must hold on a route that renames it (issue 23: "policy sees wire
 * names"). A plugin registers `acme.tickets.close`; DeepSeek's function names are `^[a-zA-Z0-9_-]{1,64}$`, so the
 * overlay sends it as `acme_tickets_close` and the model calls that. A second plugin is a policy on DSH's
 * `tools/pre-execute` waterfall, as `dsh-hooks-claude-code` and `dsh-hooks-codex` are (they match `exec.name`): it
 * denies `acme.tickets.close`. Stock DSH sends the dotted name and the model calls it by it, so the policy fires there;
 * with the overlay the policy must fire on the renamed call too, and see the declared arguments.
 */
const TOOL = 'acme.tickets.close'
const WIRE = 'acme_tickets_close'
const REASON = 'closing tickets needs a human'
const ARGS = { ticket: 'T-42' }

function toolPluginSource(): string {
  return `export const name = 'acme-tickets'
export const inject = ['tools']
const output = { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] }
export function apply(ctx) {
  ctx.tools.register({
    name: ${JSON.stringify(TOOL)},
    description: 'Close a ticket',
    parameters: { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] },
    output,
    execute: async (args) => ({ closed: args.ticket }),
  })
}
`
}

/** A `tools/pre-execute` policy by declared name; what it saw goes into `seenFile`, one JSON line per call. */
function policyPluginSource(seenFile: string): string {
  return `import { appendFileSync } from 'node:fs'
export const name = 'acme-policy'
export function apply(ctx) {
  ctx.on('tools/pre-execute', async (exec, next) => {
    appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify({ name: exec.name, arguments: exec.arguments }) + '\\n')
    if (exec.name === ${JSON.stringify(TOOL)}) return { kind: 'deny', reason: ${JSON.stringify(REASON)} }
    return next()
  })
}
`
}

function leg(turn: Turn, calledAs: string): Observed {
  const result = resultsSeen(turn.requests).get('call_0_0')
  const denied = result?.includes(REASON) === true
  const advertised = toolsSent(turn).includes(calledAs)
  const works = turn.run.exitCode === 0 && advertised && denied
  return {
    outcome: works
      ? 'works'
      : turn.run.exitCode !== 0
        ? 'dsh-fails'
        : denied
          ? 'turn-fails'
          : 'policy-missed',
    works,
    detail:
      `${describeTurn(turn)}; tools sent: ${toolsSent(turn).join(', ') || 'none'}; ` +
      `the call by ${calledAs} ${result === undefined ? 'never got a result' : denied ? 'was denied by the policy' : `ran: ${result}`}`,
  }
}

export async function declaredNamesRow(parts: AppRows): Promise<Row> {
  const dir = join(parts.home.root, 'acme-declared-names')
  mkdirSync(dir, { recursive: true })
  const toolFile = join(dir, 'tickets.mjs')
  const policyFile = join(dir, 'policy.mjs')
  writeFileSync(toolFile, toolPluginSource())
  const rows = (seen: string) => {
    writeFileSync(policyFile, policyPluginSource(seen))
    return (
      `    - id: acme-tickets\n      name: ${JSON.stringify(toolFile)}\n` +
      `    - id: acme-policy\n      name: ${JSON.stringify(policyFile)}\n`
    )
  }
  const stockSeen = join(dir, 'stock-seen.jsonl')
  const stock = await parts.turn({
    profile: parts.stockProfile,
    patch: insertLayer(rows(stockSeen)),
    script: [{ toolCalls: [{ name: TOOL, arguments: ARGS }] }],
  })
  const hardenedSeen = join(dir, 'hardened-seen.jsonl')
  const hardened = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay') + rows(hardenedSeen)),
    script: [{ toolCalls: [{ name: WIRE, arguments: ARGS }] }],
  })
  const seen = readSeen(hardenedSeen)
  const checks: Check[] = [
    {
      what: `the overlay sends ${TOOL} as ${WIRE} (DeepSeek's function-name pattern)`,
      ok: toolsSent(hardened).includes(WIRE),
    },
    {
      what: `the pre-execute policy sees the renamed call as ${TOOL} with its arguments as sent for it`,
      ok: seen.some((line) => line.name === TOOL && JSON.stringify(line.arguments) === JSON.stringify(ARGS)),
    },
    {
      what: `the policy written for ${TOOL} denies the call in both legs`,
      ok: leg(stock, TOOL).works && leg(hardened, WIRE).works,
    },
  ]
  return {
    id: 'app-policy-declared-name',
    group: GROUP,
    kind: 'guard',
    proves:
      'a tools/pre-execute policy written for a dotted tool name still fires when the route renames the tool on the wire',
    source: 'issue 23 (declared names everywhere but the wire)',
    stock: leg(stock, TOOL),
    hardened: leg(hardened, WIRE),
    checks,
  }
}

/** What the policy recorded, one JSON object per line; nothing when it never ran. */
function readSeen(file: string): { name?: unknown; arguments?: unknown }[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { name?: unknown; arguments?: unknown })
}
