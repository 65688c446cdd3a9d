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

/** One wide table's box (`.scroll`) at the layout viewport, after scrolling it all the way right. */
export interface ScrolledTable {
  /** Id of the section it is in (`totals`, `matrix`, `tools`). */
  readonly section: string
  /** The table is wider than its box, so the box scrolls sideways. */
  readonly scrolls: boolean
  /** How far the box scrolled (px). */
  readonly scrolledBy: number
  /** The first body row's first cell still starts at the box's left edge and is the element drawn there. */
  readonly firstColumnVisible: boolean
}

export interface LayoutCheck {
  readonly viewport: { readonly width: number; readonly height: number }
  /** How far the page itself is wider than the window (px; 0 when it never scrolls sideways). */
  readonly bodyOverflow: number
  readonly tables: readonly ScrolledTable[]
  readonly screenshot: string
}

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `compat: no Chromium at ${CHROMIUM} (fix: \`apt-get install -y chromium\` as root, or set DSH_HARDEN_CHROMIUM)`
}

// Runs in the page (this package has no DOM types): each `.scroll` box is scrolled all the way right, then its first
// body row's first cell must still start at the box's left edge and be what is drawn there.
const MEASURE_TABLES = `[...document.querySelectorAll('.scroll')].map((box) => {
  box.scrollIntoView({ block: 'start' });
  box.scrollLeft = box.scrollWidth;
  const cell = box.querySelector('tr:nth-child(2) > :first-child');
  const boxLeft = box.getBoundingClientRect().left;
  const rect = cell && cell.getBoundingClientRect();
  const drawn = rect && document.elementFromPoint(rect.left + 4, rect.top + rect.height / 2);
  return {
    section: box.parentElement ? box.parentElement.id : '',
    scrolls: box.scrollWidth > box.clientWidth,
    scrolledBy: box.scrollLeft,
    firstColumnVisible: Boolean(rect && Math.abs(rect.left - boxLeft) <= 1 && drawn && cell.contains(drawn)),
  };
})`

/** The width the page must read at (a 1400 px laptop window). */
export const LAYOUT_VIEWPORT = { width: 1400, height: 900 }

/**
 * Opens the page at `LAYOUT_VIEWPORT`, opens the first server's tools, and measures: whether the page overflows
 * sideways, and for every wide table whether its first column stays in view when the table is scrolled to its right
 * end. Saves a screenshot of the scrolled state.
 */
export async function checkLayout(pagePath: string, screenshotPath: string): Promise<LayoutCheck> {
  const missing = chromiumMissing()
  if (missing) throw new Error(missing)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  try {
    const page = await browser.newPage({ viewport: LAYOUT_VIEWPORT })
    await page.goto(pathToFileURL(pagePath).href)
    await page.waitForSelector('#matrix tr.server')
    await page.locator('#matrix td.cell').first().click()
    await page.waitForSelector('#tools table')
    const tables = (await page.evaluate(MEASURE_TABLES)) as ScrolledTable[]
    await page.screenshot({ path: screenshotPath, fullPage: false })
    const bodyOverflow = (await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    )) as number
    return { viewport: LAYOUT_VIEWPORT, bodyOverflow, tables, screenshot: screenshotPath }
  } finally {
    await browser.close()
  }
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
