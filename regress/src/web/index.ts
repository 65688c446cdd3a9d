import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PublishedRegistry, startPublishedRegistry } from '@dsh-harden/testkit/app-registry'
import {
  createDshHome,
  type DshApp,
  type DshHome,
  describeExit,
  ensureDshApp,
  pluginAdd,
  writeProfile,
} from '@dsh-harden/testkit/dsh-app'
import { scopeNpmrc } from '@dsh-harden/testkit/local-registry'
import type { Browser } from 'playwright-core'
import { APP_FINAL_TEXT, APP_TITLE_TEXT, type AppEndpoint, startAppEndpoint } from '../app/app-endpoint.ts'
import { resultOk, resultsSeen } from '../app/app-session.ts'
import { insertLayer } from '../app/group-parts.ts'
import { BROKEN, PLUGIN_NAME, pluginSource, VALID } from '../app/plugin-rows.ts'
import type { GroupContext } from '../group.ts'
import type { Check, Observed, Row } from '../row.ts'
import {
  headerBadge,
  launchChromium,
  newLook,
  openPanel,
  openSession,
  openSettingsTab,
  type PanelRow,
  searchPluginList,
  sendFirstPrompt,
  waitForRow,
} from './browser.ts'
import { startDshWeb } from './web-server.ts'

/**
 * A second plugin with one tool whose parameters use one `$id` twice, which ajv cannot compile: the overlay registers
 * it and, at its first validated call, finds that DSH's own validator must check its arguments (overlay README, "A
 * schema ajv cannot compile"). The model calls it once.
 */
const FALLBACK_TOOL = 'acme_shared_ids'
const FALLBACK_PLUGIN = `export const name = 'acme-extra-tools'
export const inject = ['tools']
export function apply(ctx) {
  ctx.tools.register({
    name: ${JSON.stringify(FALLBACK_TOOL)},
    description: 'two properties that share one $id',
    parameters: { type: 'object', properties: { a: { $id: 'http://example.com/shared', type: 'string' }, b: { $id: 'http://example.com/shared', type: 'number' } } },
    output: { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] },
    execute: async (args) => ({ got: args }),
  })
}
`
/** The profile's patch of the overlay's bundle row (a patch replaces the row's whole `config`). */
const VALIDATE_ARGUMENTS = '- id: dsh-harden\n  config:\n    validateArguments: true\n'
const SCRIPT = [{ toolCalls: [{ name: FALLBACK_TOOL, arguments: { a: 'x', b: 1 } }] }]
/** Bound on the panel showing a verdict recorded during the turn (its 4 s poll, or the refresh on opening). */
const ROW_TIMEOUT_MS = 15_000

/**
 * The Web UI half of issue 15: the real `dsh web` (rc.8, `web` profile: base + web-app bundles), the same third-party
 * plugin as the app rows (one good tool, two broken ones) in the profile, a prompt sent from headless Chromium the
 * way a user sends it. Stock: no overlay; DeepSeek (the local endpoint) refuses the turn. Hardened: the overlay added
 * with `dsh plugin add` from the local registry; the turn completes, and the user must find each withheld tool with
 * its JSON pointer, reason and fix one click from the chat (the session-header badge opens the *Tool contracts*
 * panel), in English and light theme, and again in Chinese and dark theme. Screenshots go to a temp directory named
 * in the report header.
 */
export const GROUP = 'web-ui'
const PROFILE = 'web'
const WEB_BUNDLES = ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-web-app']
const PROMPT = 'Look up the weather.'
/** The sidebar names a session by its first prompt until DSH's title request (answered by the endpoint) renames it. */
const SESSION_TITLE = new RegExp(`^(${APP_TITLE_TEXT}|${PROMPT.replace('.', '\\.')})`)
/** A stock turn ends when DSH shows DeepSeek's refusal; the text is the endpoint's (deepseek-endpoint.ts). */
const SETTLED = new RegExp(`^${APP_FINAL_TEXT}$|Invalid schema`)
const TURN_TIMEOUT_MS = 120_000

interface Leg {
  readonly home: DshHome
  readonly endpoint: AppEndpoint
  readonly url: string
  close(): Promise<void>
}

async function startLeg(
  app: DshApp,
  hardened: PublishedRegistry | undefined,
  context: GroupContext,
): Promise<Leg> {
  const home = createDshHome({ logFile: context.logPath, prefix: 'web-ui-home-' })
  const plugin = join(home.root, 'acme-plugin.mjs')
  writeFileSync(plugin, pluginSource(0))
  const extra = join(home.root, 'acme-extra.mjs')
  writeFileSync(extra, FALLBACK_PLUGIN)
  const rows =
    `    - id: acme\n      name: ${JSON.stringify(plugin)}\n` +
    `    - id: acme-extra\n      name: ${JSON.stringify(extra)}\n`
  writeProfile(home, PROFILE, {
    bundles: WEB_BUNDLES,
    patch: insertLayer(rows),
    ...(hardened === undefined ? {} : { npmrc: scopeNpmrc(hardened.registry) }),
  })
  if (hardened !== undefined) {
    const add = await pluginAdd(app, home, PROFILE, ['@dsh-harden/overlay'])
    if (add.exitCode !== 0) throw new Error(`dsh plugin add @dsh-harden/overlay: ${describeExit(add)}`)
    // `dsh plugin add` rewrote the manifest's bundles; the profile layer stays ours, and turns on the overlay's
    // argument validation for raw tools (the only path on which it compiles a raw tool's validator, and so finds
    // that ajv cannot compile acme_shared_ids).
    writeProfile(home, PROFILE, { patch: insertLayer(rows) + VALIDATE_ARGUMENTS })
  }
  const endpoint = await startAppEndpoint(SCRIPT)
  const web = await startDshWeb(app, home, endpoint.baseURL).catch(async (error: unknown) => {
    await endpoint.close()
    throw error
  })
  return {
    home,
    endpoint,
    url: web.url,
    close: async () => {
      await web.close()
      await endpoint.close()
      home.close()
    },
  }
}

const sent = (leg: Leg) => [
  ...new Set(leg.endpoint.agentRequests().flatMap((r) => r.tools.map((t) => t.name))),
]

async function stockLeg(browser: Browser, leg: Leg, shots: string): Promise<Observed> {
  const page = await (await newLook(browser, { locale: 'en-US', colorScheme: 'light' })).newPage()
  await sendFirstPrompt(page, leg.url, leg.home.workspace, PROMPT, SETTLED, TURN_TIMEOUT_MS)
  const { badge } = await headerBadge(page)
  await page.screenshot({ path: join(shots, 'stock-chat.png') })
  const rejected = [...new Set(leg.endpoint.agentRequests().flatMap((r) => r.rejections))]
  const shown = ((await page.locator('body').textContent()) ?? '').includes('Invalid schema')
  return {
    outcome: rejected.length > 0 ? 'every-turn-fails' : 'works',
    works: rejected.length === 0,
    detail:
      `broken tools sent: ${BROKEN.filter((tool) => sent(leg).includes(tool)).join(', ') || 'none'}; ` +
      `endpoint refused: ${rejected[0] ?? 'nothing'}; the UI ${shown ? 'shows' : 'does not show'} the refusal; ` +
      `dsh-harden badge: ${badge ?? 'none'}`,
  }
}

/** What one look at the panel found for each broken tool: its row, verdict, pointer and fix. */
function brokenRowChecks(rows: readonly PanelRow[], label: string, fixWord: string): Check[] {
  return BROKEN.map((tool) => {
    const row = rows.find((candidate) => candidate.tool === tool)
    return {
      what: `${label}: ${tool} is listed as withheld, from ${PLUGIN_NAME}, with a JSON pointer and a fix`,
      ok:
        row !== undefined &&
        row.verdict === 'withheld' &&
        row.source === PLUGIN_NAME &&
        row.pointers.length > 0 &&
        row.text.includes(fixWord),
    }
  })
}

async function hardenedLeg(
  browser: Browser,
  leg: Leg,
  shots: string,
): Promise<{ leg: Observed; checks: Check[] }> {
  const checks: Check[] = []
  const light = await (await newLook(browser, { locale: 'en-US', colorScheme: 'light' })).newPage()
  await sendFirstPrompt(light, leg.url, leg.home.workspace, PROMPT, SETTLED, TURN_TIMEOUT_MS)
  const { badge } = await headerBadge(light)
  await light.screenshot({ path: join(shots, 'hardened-chat.png') })
  checks.push({ what: 'the session header shows "2 tools withheld"', ok: badge === '2 tools withheld' })
  // Click 1 from the chat: the badge opens the panel.
  const rows = badge === undefined ? [] : await openPanel(light)
  checks.push(...brokenRowChecks(rows, 'en, light', 'Fix:'))
  checks.push({
    what: `${VALID} is listed as accepted`,
    ok: rows.some((row) => row.tool === VALID && row.verdict === 'accepted'),
  })
  const fallback = await waitForRow(light, FALLBACK_TOOL, 'fallback-validator', ROW_TIMEOUT_MS)
  await light.screenshot({ path: join(shots, 'hardened-panel-en-light.png') })
  checks.push({
    what: `${FALLBACK_TOOL} is listed as checked by DSH's validator, from acme-extra-tools, naming the construct`,
    ok: fallback !== undefined && fallback.source === 'acme-extra-tools' && fallback.text.includes('$id'),
  })
  checks.push({
    what: `the model's call of ${FALLBACK_TOOL} works (its arguments checked by DSH's validator)`,
    ok: resultOk(resultsSeen(leg.endpoint.requests).get('call_0_0')),
  })

  const titles = await searchPluginList(light, 'dsh-harden')
  await light.screenshot({ path: join(shots, 'hardened-plugin-list.png') })
  checks.push({
    what: 'the plugin list, searched for "dsh-harden", finds the overlay',
    ok: titles.includes('overlay'),
  })
  await openSettingsTab(light, /^Tool contracts/)
  const dark = await (await newLook(browser, { locale: 'zh-CN', colorScheme: 'dark' })).newPage()
  await openSession(dark, leg.url, SESSION_TITLE)
  const zh = await headerBadge(dark)
  checks.push({ what: 'in Chinese the badge reads "2 个工具被拦下"', ok: zh.badge === '2 个工具被拦下' })
  const zhRows = zh.badge === undefined ? [] : await openPanel(dark)
  await dark.screenshot({ path: join(shots, 'hardened-panel-zh-dark.png') })
  checks.push(...brokenRowChecks(zhRows, 'zh, dark', '修复：'))

  const sentTools = sent(leg)
  const rejected = leg.endpoint.agentRequests().flatMap((r) => r.rejections)
  const works =
    rejected.length === 0 && sentTools.includes(VALID) && !BROKEN.some((tool) => sentTools.includes(tool))
  const found = BROKEN.filter((tool) => rows.some((row) => row.tool === tool && row.verdict === 'withheld'))
  return {
    leg: {
      outcome: works ? 'turn-works-panel-names-withheld' : 'turn-fails',
      works,
      detail:
        `endpoint refused: ${rejected[0] ?? 'nothing'}; sent: ${[VALID, ...BROKEN].filter((t) => sentTools.includes(t)).join(', ')}; ` +
        `badge: ${badge ?? 'none'}; one click from the chat the panel lists as withheld: ${found.join(', ') || 'nothing'}` +
        (rows.length === 0 ? '' : `; e.g. ${rows[0]?.text.replace(/\s+/g, ' ')}`),
    },
    checks,
  }
}

export async function run(context: GroupContext): Promise<readonly Row[]> {
  const app = await ensureDshApp({ logFile: context.logPath })
  const shots = mkdtempSync(join(tmpdir(), 'dsh-harden-web-ui-'))
  mkdirSync(shots, { recursive: true })
  context.note(`web-ui screenshots: ${shots}`)
  const published = await startPublishedRegistry()
  let browser: Browser | undefined
  const legs: Leg[] = []
  try {
    browser = await launchChromium()
    const stock = await startLeg(app, undefined, context)
    legs.push(stock)
    const stockObserved = await stockLeg(browser, stock, shots)
    const hardened = await startLeg(app, published, context)
    legs.push(hardened)
    const observed = await hardenedLeg(browser, hardened, shots)
    return [
      {
        id: 'web-tool-contracts',
        group: GROUP,
        kind: 'fix',
        proves:
          'in the real `dsh web`, a user finds every tool the overlay withheld, with its JSON pointer, reason and fix, one click from the chat (en/light and zh/dark)',
        source: 'issue 15 (item 1); DSH #297, #447',
        stock: stockObserved,
        hardened: observed.leg,
        checks: observed.checks,
      },
    ]
  } finally {
    await browser?.close()
    for (const leg of legs) await leg.close()
    await published.registry.close()
  }
}
