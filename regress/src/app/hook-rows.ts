import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeExit, pluginAdd } from '@dsh-harden/testkit/dsh-app'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, resultsSeen, type Turn, toolsSent } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * DSH's own Claude Code hook bridge, as users install it from npm, denies a tool by its declared name on a route that
 * renames it. The rc.8 tag ships the bridge, but npm has only an earlier build: `dsh-hooks-claude-code` 0.0.1-rc.5,
 * importing `dsh-hook-protocol` (0.0.1-rc.1 on npm exports every name it imports). Its `tools/pre-execute` listener
 * matches `exec.name` as the tag's source does (packages/hooks/hooks-claude-code/src/index.ts); its peer ranges name
 * 0.0.1 DSH packages, so pnpm warns. The Codex bridge on npm (`dsh-hooks-codex` 0.0.1-rc.1) waits for a `bash`
 * service rc.8 no longer provides (it injects `shell`), so rc.8 stock cannot load it either: it has no row.
 *
 * The hook is a command: it prints the payload it got (the tool name and input as the bridge saw them) to stderr and
 * exits 2, which the protocol turns into a deny whose reason the model receives.
 */
export const HOOK_PACKAGES = [
  '@deepseek-ai/dsh-hooks-claude-code@0.0.1-rc.5',
  '@deepseek-ai/dsh-hook-protocol@0.0.1-rc.1',
] as const

const TOOL = 'acme.tickets.close'
const WIRE = 'acme_tickets_close'
const REASON = 'closing tickets needs a human'
const ARGS = { ticket: 'T-42' }

/** The bridge's config: a PreToolUse group whose matcher (a regex) is the declared, dotted name. */
const hookConfig = (command: string) =>
  JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: `^${TOOL.replaceAll('.', '\\.')}$`, hooks: [{ type: 'command', command }] }],
    },
  })

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

/** What the hook saw, read back from the denial the model received: the payload follows the reason. */
export function hookSaw(result: string | undefined): { toolName?: unknown; toolInput?: unknown } | undefined {
  if (result === undefined || !result.includes(REASON)) return undefined
  const start = result.indexOf('{')
  const end = result.lastIndexOf('}')
  if (start < 0 || end < start) return undefined
  try {
    const payload = JSON.parse(result.slice(start, end + 1)) as { tool_name?: unknown; tool_input?: unknown }
    return { toolName: payload.tool_name, toolInput: payload.tool_input }
  } catch {
    return undefined
  }
}

function leg(turn: Turn, calledAs: string): Observed {
  const result = resultsSeen(turn.requests).get('call_0_0')
  const saw = hookSaw(result)
  const works =
    turn.run.exitCode === 0 &&
    saw?.toolName === TOOL &&
    JSON.stringify(saw.toolInput) === JSON.stringify(ARGS) &&
    toolsSent(turn).includes(calledAs)
  return {
    outcome: works
      ? 'works'
      : turn.run.exitCode !== 0
        ? 'dsh-fails'
        : saw === undefined
          ? 'policy-missed'
          : 'turn-fails',
    works,
    detail:
      `${describeTurn(turn)}; the call by ${calledAs} ` +
      (result === undefined
        ? 'never got a result'
        : saw === undefined
          ? `was not denied by the hook: ${result.slice(0, 200)}`
          : `was denied; the hook saw tool_name ${JSON.stringify(saw.toolName)}, tool_input ${JSON.stringify(saw.toolInput)}`),
  }
}

/** The bridge is added to both profiles the way a user adds it, then one turn per profile calls the tool. */
export async function hookBridgeRow(parts: AppRows): Promise<Row> {
  const adds = [
    await pluginAdd(parts.app, parts.home, parts.stockProfile, HOOK_PACKAGES),
    await pluginAdd(parts.app, parts.home, parts.hardenedProfile, HOOK_PACKAGES),
  ]
  const failed = adds.find((run) => run.exitCode !== 0)
  const dir = join(parts.home.root, 'hooks-claude-code')
  mkdirSync(dir, { recursive: true })
  const toolFile = join(dir, 'tickets.mjs')
  const configPath = join(dir, 'hooks.json')
  writeFileSync(toolFile, toolPluginSource())
  writeFileSync(configPath, hookConfig(`printf '%s; payload: ' '${REASON}' >&2; cat >&2; exit 2`))
  const rows =
    `    - id: acme-tickets\n      name: ${JSON.stringify(toolFile)}\n` +
    `    - id: hooks-claude-code\n      name: '@deepseek-ai/dsh-hooks-claude-code'\n` +
    `      config:\n        configPath: ${JSON.stringify(configPath)}\n`
  const stock = await parts.turn({
    profile: parts.stockProfile,
    patch: insertLayer(rows),
    script: [{ toolCalls: [{ name: TOOL, arguments: ARGS }] }],
  })
  const hardened = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay') + rows),
    script: [{ toolCalls: [{ name: WIRE, arguments: ARGS }] }],
  })
  const checks: Check[] = [
    {
      what: `dsh plugin add ${HOOK_PACKAGES.join(' ')} succeeds in both profiles${failed === undefined ? '' : ` (${describeExit(failed)})`}`,
      ok: failed === undefined,
    },
    {
      what: `the overlay sends ${TOOL} as ${WIRE} (DeepSeek's function-name pattern)`,
      ok: toolsSent(hardened).includes(WIRE),
    },
    {
      what: `the PreToolUse hook matching ${TOOL} denies the call in both legs and sees the declared name and arguments`,
      ok: leg(stock, TOOL).works && leg(hardened, WIRE).works,
    },
  ]
  return {
    id: 'app-hooks-claude-code-declared-name',
    group: GROUP,
    kind: 'guard',
    proves:
      "DSH's Claude Code hook bridge (@deepseek-ai/dsh-hooks-claude-code from npm) denies a dotted tool by its declared name when the route renames it on the wire",
    source: 'issue 23 (declared names everywhere but the wire)',
    stock: leg(stock, TOOL),
    hardened: leg(hardened, WIRE),
    checks,
  }
}
