import { runRegress } from './cli.ts'
import { type Group, group } from './group.ts'

/**
 * The report's sections, in order. A new group is one line here: `group(name, title, () => import('./x.ts'))`, where
 * `x.ts` exports `run(context)` returning `Row`s (`row.ts`); `context.note(text)` adds a fact to the report header.
 * `--only <name>` runs one group.
 */
const GROUPS: readonly Group[] = [
  group('registration', 'plugin tools that break a session', () => import('./registration-rows.ts')),
  group('cordis-1122', '#1122: objects sent as JSON text', () => import('./cordis-rows.ts')),
  group('escalation-1149', '#1149: escalation fields, bash/write/edit', () => import('./escalation-rows.ts')),
  group('mcp-schemas', 'MCP tool lists, DeepSeek schema rules', () => import('./mcp-schemas-rows.ts')),
  group('mcp-intake', 'seed 000: intake and the repair proxy', () => import('./mcp-repair-rows.ts')),
  group('mcp-check', '`dsh-harden mcp check` against real clients', () => import('./mcp-check-rows.ts')),
  group('gateway', 'seed 004: five MCP servers, lazy gateway', () => import('./gateway-rows.ts')),
  group(
    'mcp-conformance',
    'the official MCP conformance suite, direct and through mcp repair',
    () => import('./conformance-rows.ts'),
  ),
  group(
    'app',
    'the real dsh 0.1.0-rc.8 app, headless: stock profile vs hardened',
    () => import('./app/index.ts'),
  ),
  group(
    'web-ui',
    'the real dsh web UI in headless Chromium: what a user sees of withheld tools',
    () => import('./web/index.ts'),
  ),
]

await runRegress(GROUPS, process.argv.slice(2))
