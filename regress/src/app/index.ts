import { type PublishedRegistry, startPublishedRegistry } from '@dsh-harden/testkit/app-registry'
import {
  createDshHome,
  describeExit,
  ensureDshApp,
  pluginAdd,
  writeProfile,
} from '@dsh-harden/testkit/dsh-app'
import { scopeNpmrc } from '@dsh-harden/testkit/local-registry'
import type { GroupContext } from '../group.ts'
import type { Row } from '../row.ts'
import { declaredNamesRow } from './declared-names-row.ts'
import { doctorRows } from './doctor-rows.ts'
import { appRows } from './group-parts.ts'
import { hookBridgeRow } from './hook-rows.ts'
import { globSpillRow, skillReminderRow } from './identity-rows.ts'
import { installRow, OVERLAY_PACKAGE } from './install-row.ts'
import { installWalkthroughRow } from './install-walkthrough.ts'
import { loadOrderRows } from './load-order-rows.ts'
import { emptySchemaRow, gatewayRow } from './mcp-rows.ts'
import { pluginRows } from './plugin-rows.ts'
import { pollutionRow } from './pollution-row.ts'
import { cordisRows, escalationRows } from './tool-call-rows.ts'

/**
 * The real-app group: the real `dsh` 0.1.0-rc.8 CLI, installed and cached (testkit `ensureDshApp`), a fresh DSH home,
 * our packages published to a local verdaccio and added to a profile with `dsh plugin add`, and headless turns
 * against the local DeepSeek endpoint, stock profile against hardened profile, one turn at a time.
 */
const STOCK = 'stock'
const HARDENED = 'hardened'
/** Added after the overlay (whose add is the install-route row), in one more `dsh plugin add`. */
const OTHER_PACKAGES = [
  '@dsh-harden/tool-bash',
  '@dsh-harden/tool-fs',
  '@dsh-harden/mcp-client',
  '@dsh-harden/lazy-mcp',
]

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export async function run(context: GroupContext): Promise<readonly Row[]> {
  const started = performance.now()
  const app = await ensureDshApp({ logFile: context.logPath })
  context.note(
    `app install (@deepseek-ai/dsh@0.1.0-rc.8): ${seconds(app.installMs)}, from cache: ${app.fromCache ? 'yes' : 'no'} (${app.dir})`,
  )
  const home = createDshHome({ logFile: context.logPath })
  let published: PublishedRegistry | undefined
  try {
    writeProfile(home, STOCK)
    published = await startPublishedRegistry()
    context.note(
      `local registry (verdaccio): ${published.packages.length} packages, ready in ${seconds(published.ms)}, ` +
        `from cache: ${published.fromCache ? 'yes' : 'no'}`,
    )
    writeProfile(home, HARDENED, { npmrc: scopeNpmrc(published.registry) })
    const overlayAdd = await pluginAdd(app, home, HARDENED, [OVERLAY_PACKAGE])
    const othersAdd = await pluginAdd(app, home, HARDENED, OTHER_PACKAGES)
    if (othersAdd.exitCode !== 0)
      context.log(`dsh plugin add ${OTHER_PACKAGES.join(' ')}: ${describeExit(othersAdd)}`)
    const parts = appRows(app, home, STOCK, HARDENED)
    const rows: Row[] = [await installRow(parts, overlayAdd)]
    rows.push(...(await pluginRows(parts)))
    rows.push(...(await loadOrderRows(parts)))
    rows.push(await pollutionRow(parts))
    rows.push(await skillReminderRow(parts), await globSpillRow(parts), await declaredNamesRow(parts))
    rows.push(await hookBridgeRow(parts))
    rows.push(...(await cordisRows(parts)))
    rows.push(...(await escalationRows(parts)))
    rows.push(await emptySchemaRow(parts))
    rows.push(await gatewayRow(parts))
    rows.push(...(await doctorRows(parts, overlayAdd)))
    rows.push(await installWalkthroughRow(context.logPath))
    context.note(`app group: ${rows.length} rows in ${seconds(performance.now() - started)}`)
    return rows
  } finally {
    await published?.registry.close()
    home.close()
  }
}
