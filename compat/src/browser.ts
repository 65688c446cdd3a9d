/**
 * Opens the page in a real headless Chromium (Debian's, through playwright-core) and saves a screenshot: the check
 * that the page renders its matrix from the embedded JSON with no network and no error.
 */
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'

/** Debian's `chromium`; `DSH_HARDEN_CHROMIUM` points elsewhere. */
export const CHROMIUM = process.env.DSH_HARDEN_CHROMIUM ?? '/usr/bin/chromium'

export interface PageCheck {
  /** Rows of the servers × routes matrix (one per server). */
  readonly matrixRows: number
  /** Rows of the totals table (one per route). */
  readonly totalRows: number
  /** Text of the drill-down after clicking the first matrix cell and its first tool. */
  readonly detailHeading: string
  /** Errors the page threw, and requests it tried to make (it should make none). */
  readonly pageErrors: readonly string[]
  readonly requests: readonly string[]
  readonly screenshot: string
}

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `compat: no Chromium at ${CHROMIUM} (fix: \`apt-get install -y chromium\` as root, or set DSH_HARDEN_CHROMIUM)`
}

/** Loads `pagePath`, clicks into the first server's first tool, and screenshots the top of the page. */
export async function checkPage(pagePath: string, screenshotPath: string): Promise<PageCheck> {
  const missing = chromiumMissing()
  if (missing) throw new Error(missing)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } })
    const pageErrors: string[] = []
    const requests: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url())
    })
    await page.goto(pathToFileURL(pagePath).href)
    await page.waitForSelector('#matrix tr.server')
    const matrixRows = await page.locator('#matrix tr.server').count()
    const totalRows = (await page.locator('#totals tr').count()) - 1
    await page.screenshot({ path: screenshotPath, fullPage: false })
    await page.locator('#matrix td.cell').first().click()
    await page.locator('#tools .pair').first().click()
    const detailHeading = (await page.locator('#detail h2').first().textContent()) ?? ''
    await page.screenshot({ path: screenshotPath.replace(/\.png$/, '-detail.png'), fullPage: false })
    return { matrixRows, totalRows, detailHeading, pageErrors, requests, screenshot: screenshotPath }
  } finally {
    await browser.close()
  }
}
