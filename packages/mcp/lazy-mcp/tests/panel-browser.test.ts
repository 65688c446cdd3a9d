import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createGateway,
  type GatewayStatusSnapshot,
  type LazyMcpGateway,
  type StatusServer,
  startStatusServer,
} from '../src/index.ts'
import { EVERYTHING_BIN, packageBin, sleep, tempDir } from './servers.ts'

/**
 * The status panel in headless Chromium against the REAL gateway core, real reference servers and a short idle
 * window: badges must follow the host state machine (dormant → connecting/in use → connected → dormant, failed
 * for a server whose command does not exist) while the page only reads.
 */
/** Debian's `chromium` package; DSH_HARDEN_CHROMIUM points elsewhere. */
const CHROMIUM = process.env.DSH_HARDEN_CHROMIUM ?? '/usr/bin/chromium'
const SKIP = process.env.DSH_HARDEN_SKIP_BROWSER === '1'
const ARTIFACTS = fileURLToPath(new URL('../../../../.artifacts/', import.meta.url))
const IDLE_MS = 3000
const IN_USE_MS = 1000
const POLL_MS = 250
const CANARY = 'canary-env-value-7f3a'
const MISSING_COMMAND = '/nonexistent/dsh-harden-no-such-mcp-server'

let gateway: LazyMcpGateway
let status: StatusServer
let browser: BrowserContext
let removeTemp: () => Promise<void>
let userDataDir: string

function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the panel test needs it. Install it with ` +
        '`apt-get install -y chromium` (as root), or set DSH_HARDEN_SKIP_BROWSER=1 to skip the browser tests.',
    )
}

describe.skipIf(SKIP)('status panel in headless Chromium', () => {
  beforeAll(async () => {
    requireChromium()
    const temp = await tempDir('lazy-mcp-panel-')
    removeTemp = temp.remove
    userDataDir = await mkdtemp(join(tmpdir(), 'lazy-mcp-chromium-'))
    const created = await createGateway(
      {
        idleDisconnectMs: IDLE_MS,
        cachePath: join(temp.dir, 'tool-cache.json'),
        servers: [
          {
            name: 'everything',
            transport: 'stdio',
            description: 'MCP reference server (everything)',
            command: process.execPath,
            args: [EVERYTHING_BIN, 'stdio'],
            env: { PANEL_CANARY: CANARY },
          },
          {
            name: 'memory',
            transport: 'stdio',
            description: 'Knowledge-graph memory',
            command: process.execPath,
            args: [packageBin('@modelcontextprotocol/server-memory', 'dist/index.js')],
            env: { MEMORY_FILE_PATH: join(temp.dir, 'memory.jsonl') },
            idleDisconnectMs: 60_000,
          },
          { name: 'broken', transport: 'stdio', command: MISSING_COMMAND },
        ],
      },
      { env: { PATH: process.env.PATH }, home: temp.dir },
    )
    gateway = created.gateway
    status = await startStatusServer(gateway)
    // A fresh profile per run: playwright passes it as --user-data-dir.
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1100, height: 760 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await status?.close()
    await gateway?.dispose()
    await removeTemp?.()
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true })
  }, 600_000)

  async function openPanel(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await browser.newPage()
    await page.emulateMedia({ colorScheme })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${status.panelUrl}&poll=${POLL_MS}&inUse=${IN_USE_MS}`)
    await page.waitForSelector('tr[data-server="everything"]')
    expect(errors).toEqual([])
    return page
  }

  /** Records every badge the page renders for `server`, as a list of distinct consecutive values. */
  async function recordBadges(page: Page, server: string): Promise<() => Promise<string[]>> {
    // In-page code as text: this package type-checks without the DOM library.
    const key = JSON.stringify(server)
    await page.evaluate(`(() => {
      const seen = []
      const note = () => {
        const badge = document.querySelector('tr[data-server=' + JSON.stringify(${key}) + ']')?.getAttribute('data-badge')
        if (badge && seen.at(-1) !== badge) seen.push(badge)
      }
      note()
      new MutationObserver(note).observe(document.getElementById('rows'), { childList: true })
      window.__badges = { ...(window.__badges ?? {}), [${key}]: seen }
    })()`)
    return () => page.evaluate(`window.__badges[${key}]`) as Promise<string[]>
  }

  const badgeOf = (page: Page, server: string) =>
    page.getAttribute(`tr[data-server="${server}"]`, 'data-badge')

  async function waitForBadge(page: Page, server: string, badge: string, ms: number): Promise<void> {
    await page.waitForSelector(`tr[data-server="${server}"][data-badge="${badge}"]`, { timeout: ms })
  }

  it('opening and polling the panel never wakes a server', async () => {
    const page = await openPanel()
    await sleep(POLL_MS * 6)
    for (const server of ['everything', 'memory', 'broken']) {
      expect(await badgeOf(page, server)).toBe('dormant')
      expect(gateway.detail(server).attempts).toBe(0)
    }
    expect(await page.textContent('#summary')).toContain('3 servers')
    expect(await page.inputValue('#idle-seconds')).toBe(String(IDLE_MS / 1000))
    await page.close()
  }, 600_000)

  it('badges follow a call: dormant → connecting/in use → connected → dormant (idle release)', async () => {
    const page = await openPanel()
    const badges = await recordBadges(page, 'everything')
    const call = gateway.call('everything', 'echo', { message: 'from the panel test' })
    await waitForBadge(page, 'everything', 'in-use', 20_000)
    expect(await call).toContain('from the panel test')
    const row = page.locator('tr[data-server="everything"]')
    await expect.poll(() => row.textContent()).toMatch(/\(live\)/)
    expect(await row.textContent()).toMatch(/3 s \(config\)/)
    await waitForBadge(page, 'everything', 'connected', 5000)
    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'lazy-mcp-panel-connected.png'), fullPage: true })
    await waitForBadge(page, 'everything', 'dormant', IDLE_MS * 2 + 2000)
    const sequence = await badges()
    expect(sequence[0]).toBe('dormant')
    expect(['connecting', 'in-use']).toContain(sequence[1])
    expect(sequence.slice(-3), sequence.join(' → ')).toEqual(['in-use', 'connected', 'dormant'])
    if (process.env.DSH_HARDEN_PANEL_TRACE === '1') console.log(`everything: ${sequence.join(' → ')}`)
    expect(sequence).not.toContain('failed')
    // After the release the tool count falls back to the cache (or the in-process list), never "live".
    expect(await row.textContent()).toMatch(/\((cache|memory)\)/)
    expect(gateway.detail('everything').pid).toBeUndefined()
    await page.close()
  }, 600_000)

  it('a server whose command does not exist shows failed; no command line or env value reaches the page', async () => {
    const page = await openPanel()
    await expect(gateway.call('broken', 'anything', {})).rejects.toThrow(/delivery=not_sent/)
    await waitForBadge(page, 'broken', 'failed', 5000)
    const row = page.locator('tr[data-server="broken"]')
    expect(await row.locator('.error-text').textContent()).toMatch(/could not be started/)
    // memory has its own window: shown as such, and it does not follow the panel.
    expect(await page.locator('tr[data-server="memory"]').textContent()).toMatch(/60 s \(own\)/)
    const text = (await page.textContent('body')) ?? ''
    const html = await page.content()
    const state = JSON.stringify(
      await (
        await fetch(`${status.url}/lazy-mcp/state`, { headers: { authorization: `Bearer ${status.token}` } })
      ).json(),
    )
    for (const secret of [MISSING_COMMAND, CANARY, EVERYTHING_BIN, process.execPath, 'MEMORY_FILE_PATH']) {
      expect(text).not.toContain(secret)
      expect(html).not.toContain(secret)
      expect(state).not.toContain(secret)
    }
    await page.close()
  }, 600_000)

  it('idle-window form: seconds validated in the page, POST stores ms, DELETE restores the configuration', async () => {
    const page = await openPanel()
    const input = page.locator('#idle-seconds')
    for (const bad of ['abc', '0', '9999999999']) {
      await input.fill(bad)
      await page.click('#idle-save')
      expect(await page.textContent('#idle-error')).toMatch(/between 1 and 2147483 seconds/)
      expect(await input.getAttribute('aria-invalid')).toBe('true')
    }
    expect(gateway.snapshot().idleOverride).toBe(false)

    await input.fill('4.5')
    await page.click('#idle-save')
    await expect.poll(() => gateway.snapshot().idleDisconnectMs).toBe(4500)
    expect(gateway.snapshot().idleOverride).toBe(true)
    await expect
      .poll(() => page.textContent('#idle-current'))
      .toMatch(/4\.5 s \(4500 ms\), set from this panel/)
    expect(await page.textContent('#idle-error')).toBe('')
    await expect
      .poll(() => page.locator('tr[data-server="everything"]').textContent())
      .toMatch(/4\.5 s \(panel\)/)
    expect(await page.locator('tr[data-server="memory"]').textContent()).toMatch(/60 s \(own\)/)

    // Light and dark screenshots of the whole page (test artefacts, never the repo).
    await page.screenshot({ path: join(ARTIFACTS, 'lazy-mcp-panel.png'), fullPage: true })
    const dark = await openPanel('dark')
    const background = await dark.evaluate('getComputedStyle(document.body).backgroundColor')
    expect(background).toBe('rgb(13, 17, 23)')
    await dark.screenshot({ path: join(ARTIFACTS, 'lazy-mcp-panel-dark.png'), fullPage: true })
    await dark.close()

    await page.click('#idle-reset')
    await expect.poll(() => gateway.snapshot().idleOverride).toBe(false)
    expect((gateway.snapshot() as GatewayStatusSnapshot).idleDisconnectMs).toBe(IDLE_MS)
    await expect.poll(() => page.textContent('#idle-current')).toMatch(/from the configuration/)
    expect(await page.isDisabled('#idle-reset')).toBe(true)
    await page.close()
  }, 600_000)

  it('the page is usable by name: table headers, labelled field, live regions', async () => {
    const page = await openPanel()
    expect(await page.getByRole('table').count()).toBe(1)
    expect(await page.getByRole('rowheader', { name: /everything/ }).count()).toBe(1)
    expect(await page.getByLabel('Seconds').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(1)
    expect(await page.getByRole('status').count()).toBeGreaterThan(0)
    await page.close()
  }, 600_000)
})
