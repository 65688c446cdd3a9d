import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkLayout, LAYOUT_VIEWPORT } from '../src/browser.ts'
import type { ServerListing } from '../src/collect.ts'
import { writeReport } from '../src/report-files.ts'
import { buildReport } from '../src/table.ts'

// Where the repository's browser tests leave their screenshots (git-ignored).
const ARTIFACTS = fileURLToPath(new URL('../../.artifacts/compat-layout/', import.meta.url))
const SKIP_BROWSER = process.env.DSH_HARDEN_SKIP_BROWSER === '1'

// Servers with the long package names and tool names the real corpus has, so every table is as wide as in a full run.
function listing(index: number): ServerListing {
  return {
    id: `server-with-a-long-identifier-${index}`,
    packageName: `@some-organisation/mcp-server-with-a-long-package-name-${index}`,
    packageVersion: '2026.8.31',
    serverName: `server-${index}`,
    serverVersion: '1.0.0',
    tools: [
      {
        name: `get_merge_request_approval_state_and_rules_${index}`,
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string' }, value: {}, mode: { type: ['string', 'null'] } },
          required: ['id'],
        },
      },
      {
        name: `list_everything_${index}`,
        inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' },
      },
    ],
  }
}

describe('the page at a 1400 px window', () => {
  // Needs Debian's chromium (`apt-get install -y chromium`); DSH_HARDEN_SKIP_BROWSER=1 skips it.
  it.skipIf(SKIP_BROWSER)(
    'never scrolls sideways itself; wide tables scroll in their box with the first column in view',
    async () => {
      const report = await buildReport([0, 1, 2, 3].map(listing))
      const written = await writeReport(report, ARTIFACTS)
      const layout = await checkLayout(written.page, `${ARTIFACTS}layout.png`)
      console.log(`compat page at ${LAYOUT_VIEWPORT.width}x${LAYOUT_VIEWPORT.height}: ${layout.screenshot}`)
      expect(layout.viewport).toEqual({ width: 1400, height: 900 })
      expect(layout.bodyOverflow).toBe(0)
      expect(layout.tables.map((table) => table.section)).toEqual(['totals', 'matrix', 'tools'])
      // A tools row is one unbreakable pair of badges per route, so that table is wider than 1400 px with the routes
      // there are: the sideways scroll is really exercised. (The totals table wraps its headers and may just fit.)
      expect(layout.tables.find((table) => table.section === 'tools')).toMatchObject({ scrolls: true })
      expect(layout.tables.find((table) => table.section === 'tools')!.scrolledBy).toBeGreaterThan(0)
      for (const table of layout.tables) expect(table).toMatchObject({ firstColumnVisible: true })
    },
  )
})
