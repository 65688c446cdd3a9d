import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ScriptStep } from '../model-script.ts'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, rejectionsOf, resultOk, resultsSeen, type Turn, toolsSent } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'
import { BROKEN, namingLine, PLUGIN_NAME, pluginRow, pluginSource, stockLeg, VALID } from './plugin-rows.ts'

/**
 * Load order in the real app's loader (issue 14, finding 5 and "Done when"): a refused tool that the profile names
 * elsewhere must not change what the user sees, whichever of the overlay and the plugin starts first.
 *
 * The plugin is `plugin-rows.ts`'s (one valid tool, two broken ones); the refused tool `acme_bare_table` is named
 *   - in `SystemPrompt`'s `toolOrder`, set through the profile's `system-prompt` row config (rc.8
 *     dsh-system-prompt `orderTools`: a listed name it does not know makes `assemble()` throw);
 *   - in a subagent's `toolFilter`, set through the profile's `tool-subagent` row config (rc.8 dsh-tool-subagent
 *     `Config.toolFilter`, applied by dsh-subagent `child-agent.ts` as `childCtx.tools.restrict()`; unknown names
 *     fail the child's start). The model delegates one call of the valid tool to a subagent.
 * Each in two orders: the plugin behind a 2 s top-level await (the overlay row has started when it registers), and
 * importing at once (it registers before the overlay starts). Which order happened is read from the overlay's
 * notice, which says when a tool was registered before dsh-harden started.
 *
 * Stock: whatever stock does (it sends the broken schema and DeepSeek refuses the request). Hardened, in both
 * orders: the session runs (exit 0, no request refused), the valid tool's call works (through the subagent in the
 * filter rows), and the user is told once: exactly one stderr line names the refused tool, its plugin and a pointer.
 */
const REFUSED = BROKEN[0]
const REST = '<unlisted-tools>'

type Reader = 'tool-order' | 'subagent-filter'
type Order = 'overlay-first' | 'plugin-first'

const DELAY_MS: Record<Order, number> = { 'overlay-first': 2000, 'plugin-first': 0 }

/** The profile rows that name the refused tool (replacing the row's config: include patches replace `config`). */
function readerPatch(reader: Reader): string {
  if (reader === 'tool-order') {
    // The named tools last: lexicographic order (no toolOrder) would put them first, so the order shows it applied.
    const config = { persona: '', toolOrder: [REST, REFUSED, VALID] }
    return `- id: system-prompt\n  config: ${JSON.stringify(config)}\n`
  }
  // dsh-base's own config of the row, plus the filter.
  const config = {
    provider: 'spawn',
    toolName: 'subagent',
    backgroundMode: 'continuable',
    toolFilter: { allow: [VALID, REFUSED] },
  }
  return `- id: tool-subagent\n  config: ${JSON.stringify(config)}\n`
}

/** The model's steps; call ids are `call_<step>_<index>` (app-endpoint.ts). */
function script(reader: Reader): { steps: ScriptStep[]; validCall: string } {
  const lookup = { name: VALID, arguments: { q: 'weather' } }
  if (reader === 'tool-order') return { steps: [{ toolCalls: [lookup] }], validCall: 'call_0_0' }
  return {
    steps: [
      {
        toolCalls: [
          {
            name: 'subagent',
            arguments: {
              description: 'Look up the weather',
              prompt: `Call ${VALID} with q "weather" and report the result.`,
              run_in_background: false,
            },
          },
        ],
      },
      // The child's first request: it calls the valid tool; its next request gets the final text.
      { toolCalls: [lookup] },
    ],
    validCall: 'call_1_0',
  }
}

/** Which order the overlay's notice says happened, or `unknown` when no line names the refused tool. */
export function observedOrder(stderr: string): Order | 'unknown' {
  const line = namingLine(stderr, REFUSED, [PLUGIN_NAME, 'acme'])
  if (line === undefined) return 'unknown'
  return /before dsh-harden started/.test(line) ? 'plugin-first' : 'overlay-first'
}

/** How many stderr lines name the refused tool with its plugin and a pointer (the user is told once: exactly one). */
export function timesTold(stderr: string): number {
  return stderr.split('\n').filter((line) => namingLine(line, REFUSED, [PLUGIN_NAME, 'acme']) !== undefined)
    .length
}

/** The tool names of each agent request, in the order sent. */
const toolLists = (turn: Turn): string[][] =>
  turn.agentRequests.map((request) => request.tools.map((t) => t.name))

/**
 * Whether the profile's naming took effect, on one leg: `toolOrder` puts the valid tool last in the first agent
 * request; a subagent's `toolFilter` leaves its child's request (the second agent request; stock never gets that
 * far, so only hardened can show it) none of the parent's tools but the filter's (a child may have tools of its own,
 * such as a report channel).
 */
export function namingApplied(reader: Reader, lists: readonly (readonly string[])[]): boolean {
  const [parent = [], child] = lists
  if (reader === 'tool-order') return parent.at(-1) === VALID
  if (child === undefined) return false
  return (
    child.includes(VALID) &&
    child.every((name) => name === VALID || name === REFUSED || !parent.includes(name))
  )
}

function hardenedLeg(turn: Turn, reader: Reader, order: Order): { leg: Observed; checks: Check[] } {
  const { validCall } = script(reader)
  const results = resultsSeen(turn.requests)
  const valid = results.get(validCall)
  const delegated = reader === 'subagent-filter' ? results.get('call_0_0') : undefined
  const rejected = rejectionsOf(turn)
  const told = timesTold(turn.run.stderr)
  const seenOrder = observedOrder(turn.run.stderr)
  const works =
    turn.run.exitCode === 0 &&
    rejected.length === 0 &&
    resultOk(valid) &&
    (reader === 'tool-order' || resultOk(delegated))
  const shown = (text: string | undefined) =>
    text === undefined ? 'never seen' : resultOk(text) ? 'ok' : text
  return {
    leg: {
      outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : 'turn-fails',
      works,
      detail:
        `${describeTurn(turn)}; ${REFUSED} sent: ${toolsSent(turn).includes(REFUSED) ? 'yes' : 'no'}` +
        (reader === 'subagent-filter' ? `; subagent result: ${shown(delegated)}` : '') +
        `; ${VALID} result: ${shown(valid)}; stderr lines naming ${REFUSED}: ${told}; order seen: ${seenOrder}` +
        `; tools per agent request: ${toolLists(turn)
          .map((names) =>
            names.length > 4 ? `${names.length} (…, ${names.slice(-2).join(', ')})` : names.join(', '),
          )
          .join(' | ')}`,
    },
    checks: [
      {
        what: `the user is told once: exactly one stderr line names ${REFUSED}, its plugin and a pointer`,
        ok: told === 1,
      },
      {
        what: `the load order was ${order} (the overlay's notice ${order === 'plugin-first' ? 'says' : 'does not say'} the tool was registered before dsh-harden started)`,
        ok: seenOrder === order,
      },
    ],
  }
}

const PROVES: Record<Reader, string> = {
  'tool-order': `a refused tool named in SystemPrompt's \`toolOrder\` (profile config)`,
  'subagent-filter': `a refused tool named in a subagent's \`toolFilter\` (profile config of tool-subagent; the child's \`restrict()\`)`,
}

export async function loadOrderRows(parts: AppRows): Promise<Row[]> {
  const dir = join(parts.home.root, 'load-order')
  mkdirSync(dir, { recursive: true })
  const rows: Row[] = []
  for (const reader of ['tool-order', 'subagent-filter'] as const) {
    for (const order of ['overlay-first', 'plugin-first'] as const) {
      const id = `app-load-order-${reader}-${order}`
      const file = join(dir, `${id}.mjs`)
      writeFileSync(file, pluginSource(DELAY_MS[order]))
      const { steps } = script(reader)
      const turn = (profile: string, ours: string) =>
        parts.turn({
          profile,
          patch: insertLayer(ours + pluginRow(file)) + readerPatch(reader),
          script: steps,
        })
      const stock = await turn(parts.stockProfile, '')
      const hardenedTurn = await turn(parts.hardenedProfile, parts.ours('@dsh-harden/overlay'))
      const hardened = hardenedLeg(hardenedTurn, reader, order)
      const applied: Check =
        reader === 'tool-order'
          ? {
              what: `the profile's toolOrder took effect on both legs (${VALID} is the last tool of the first request)`,
              ok: namingApplied(reader, toolLists(stock)) && namingApplied(reader, toolLists(hardenedTurn)),
            }
          : {
              what: `the subagent's toolFilter took effect (of the parent's tools, its child's request carries only ${VALID})`,
              ok: namingApplied(reader, toolLists(hardenedTurn)),
            }
      rows.push({
        id,
        group: GROUP,
        kind: 'fix',
        proves: `${PROVES[reader]}, ${order === 'overlay-first' ? 'the overlay started before the plugin (2 s top-level await)' : 'the plugin registered before the overlay started'}: the session runs and the user is told once`,
        source: 'issue 14 (finding 5; Done when: no load order changes what a user sees)',
        stock: stockLeg({ turn: stock }),
        hardened: hardened.leg,
        checks: [applied, ...hardened.checks],
      })
    }
  }
  return rows
}
