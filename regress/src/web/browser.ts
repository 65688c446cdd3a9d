import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/**
 * What a user does in the real `dsh web` UI, in headless Chromium (Debian's `chromium`; `DSH_HARDEN_CHROMIUM` points
 * elsewhere): open the page, pick the workspace, send a prompt, then look at the session header and the *Tool
 * contracts* panel. Selectors are the UI's own roles and labels (rc.8's English copy), and the panel's data attributes.
 */
export const CHROMIUM = process.env.DSH_HARDEN_CHROMIUM ?? '/usr/bin/chromium'

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the web-ui rows need it. Install it with ` +
        '`apt-get install -y chromium` (as root), or point DSH_HARDEN_CHROMIUM at a Chromium binary.',
    )
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
}

export interface Look {
  readonly locale: 'en-US' | 'zh-CN'
  readonly colorScheme: 'light' | 'dark'
}

export function newLook(browser: Browser, look: Look): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1280, height: 820 },
    locale: look.locale,
    colorScheme: look.colorScheme,
  })
}

const UI_TIMEOUT_MS = 30_000

/** rc.8 shows an "Internal Testing Notice" on a fresh home; it is acknowledged once (host-backed). */
async function dismissNotice(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Continue' })
  try {
    await button.waitFor({ timeout: 8_000 })
    await button.click()
  } catch {
    // acknowledged earlier in this home
  }
}

/**
 * A home without a workspace has a composer that waits for one ("Choose a workspace to start"): the user picks it
 * with the picker's path field, then types and sends. Returns when the turn settled, i.e. `settled` shows on the page.
 */
export async function sendFirstPrompt(
  page: Page,
  url: string,
  workspace: string,
  prompt: string,
  settled: RegExp,
  turnTimeoutMs: number,
): Promise<void> {
  await page.goto(url)
  await dismissNotice(page)
  const composer = page.getByRole('textbox', { name: 'Describe what you want to build' })
  const noWorkspace = page.getByRole('textbox', { name: 'Choose workspace' })
  await composer.or(noWorkspace).first().waitFor({ timeout: UI_TIMEOUT_MS })
  if (await noWorkspace.isVisible()) {
    await page.getByRole('button', { name: 'Choose workspace' }).first().click()
    await page.getByRole('button', { name: 'Edit path' }).click({ timeout: UI_TIMEOUT_MS })
    await page.locator('input').last().fill(workspace)
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Open', exact: true }).click({ timeout: UI_TIMEOUT_MS })
  }
  await composer.click({ timeout: UI_TIMEOUT_MS })
  await page.keyboard.type(prompt)
  await page.keyboard.press('Enter')
  await page.getByText(settled).first().waitFor({ timeout: turnTimeoutMs })
}

/** Opens the session whose sidebar name matches `title` (one click), as a user coming back to it does. */
export async function openSession(page: Page, url: string, title: RegExp): Promise<void> {
  await page.goto(url)
  await dismissNotice(page)
  await page.getByRole('treeitem', { name: title }).first().click({ timeout: UI_TIMEOUT_MS })
}

export interface PanelRow {
  readonly tool: string
  readonly verdict: string
  readonly source: string
  /** The row's whole text as shown. */
  readonly text: string
  readonly pointers: readonly string[]
}

export interface HeaderLook {
  /** The badge's text in the session header, or undefined when there is none. */
  readonly badge: string | undefined
}

export async function headerBadge(page: Page): Promise<HeaderLook> {
  const badge = page.locator('[data-dsh-harden-badge]')
  try {
    await badge.waitFor({ timeout: 10_000 })
  } catch {
    return { badge: undefined }
  }
  return { badge: ((await badge.textContent()) ?? '').trim() }
}

/** Clicks the session-header badge and reads the panel it opens. */
export async function openPanel(page: Page): Promise<readonly PanelRow[]> {
  await page.locator('[data-dsh-harden-badge]').click()
  await page
    .locator('[data-dsh-harden-panel] [data-dsh-harden-tool]')
    .first()
    .waitFor({ timeout: UI_TIMEOUT_MS })
  return readRows(page)
}

export function readRows(page: Page): Promise<readonly PanelRow[]> {
  return page.locator('[data-dsh-harden-tool]').evaluateAll((nodes) =>
    nodes.map((node) => ({
      tool: node.getAttribute('data-dsh-harden-tool') ?? '',
      verdict: node.getAttribute('data-verdict') ?? '',
      source: node.getAttribute('data-source') ?? '',
      // biome-ignore lint/performance/useDomNodeTextContent: the row as the user reads it (rendered text: a folded row reads empty)
      text: (node as unknown as { innerText: string }).innerText,
      pointers: [...node.querySelectorAll('[data-pointer]')].map(
        (item) => item.getAttribute('data-pointer') ?? '',
      ),
    })),
  )
}

/** Waits (bounded) until the open panel shows `tool` with `verdict`: the panel follows the host while it is shown. */
export async function waitForRow(
  page: Page,
  tool: string,
  verdict: string,
  timeoutMs: number,
): Promise<PanelRow | undefined> {
  try {
    await page
      .locator(`[data-dsh-harden-tool="${tool}"][data-verdict="${verdict}"]`)
      .waitFor({ timeout: timeoutMs })
  } catch {
    return undefined
  }
  return (await readRows(page)).find((row) => row.tool === tool)
}

/** Settings → Plugins → Plugin list, searched for `query`: the titles of the cards it keeps. */
export async function searchPluginList(page: Page, query: string): Promise<readonly string[]> {
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Plugins' }).click()
  await page.getByRole('tab', { name: 'Plugin list' }).click()
  await page.getByRole('searchbox', { name: 'Search plugins' }).fill(query)
  const cards = page.getByRole('tabpanel').locator('li strong')
  await cards.first().waitFor({ timeout: UI_TIMEOUT_MS })
  return cards.allInnerTexts()
}

/** Settings → Plugins → the overlay's own tab (the panel without a badge to click). */
export async function openSettingsTab(page: Page, label: RegExp): Promise<void> {
  await page.getByRole('tab', { name: label }).click()
  await page.locator('[data-dsh-harden-panel]').waitFor({ timeout: UI_TIMEOUT_MS })
}
