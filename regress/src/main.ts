import { runRegress } from './cli.ts'
import { type Group, group } from './group.ts'

const legacy = () => import('./legacy-groups.ts')

/**
 * The report's sections, in order. A new group is one line here: `group(name, title, () => import('./x.ts'))`, where
 * `x.ts` exports `run(context)` returning `Row`s (`row.ts`); `context.note(text)` adds a fact to the report header.
 * `--only <name>` runs one group.
 */
const GROUPS: readonly Group[] = [
  group(
    'registration',
    'plugin tools whose parameters break a DSH session when they register',
    async () => (await legacy()).registration,
  ),
  group(
    'cordis-1122',
    '#1122: arguments a model sends as JSON text, through the real dsh-tool-cordis',
    async () => (await legacy()).cordis,
  ),
  group(
    'escalation-1149',
    '#1149: escalation fields on the real bash/write/edit tools and sandbox',
    async () => (await legacy()).escalation,
  ),
  group(
    'mcp-schemas',
    'the real tool lists of MCP servers under the routes’ schema rules',
    async () => (await legacy()).schemas,
  ),
  group(
    'mcp-intake',
    'seed 000: MCP tool lists strict clients refuse; tolerant intake and the repair proxy',
    async () => (await legacy()).intake,
  ),
  group(
    'mcp-check',
    '`dsh-harden mcp check` on a broken server and on the reference servers',
    async () => (await legacy()).check,
  ),
  group(
    'gateway',
    'seed 004: five MCP servers behind the lazy gateway',
    async () => (await legacy()).gateway,
  ),
]

await runRegress(GROUPS, process.argv.slice(2))
