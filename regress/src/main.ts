import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { REGRESSION_CASES } from './cases.ts'
import { cordisRows } from './cordis-rows.ts'
import { startDeepSeekEndpoint } from './deepseek-endpoint.ts'
import { escalationRows } from './escalation-rows.ts'
import { gatewayRows } from './gateway-rows.ts'
import { mcpCheckRows } from './mcp-check-rows.ts'
import { mcpProfileRows } from './mcp-profile-rows.ts'
import { mcpRepairRows } from './mcp-repair-rows.ts'
import { renderTable } from './report.ts'
import { type CaseRow, runCase } from './run-case.ts'

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } })

// DSH writes an anonymous user id under DSH_HOME on the first request; keep it out of the user's home.
const home = mkdtempSync(join(tmpdir(), 'dsh-harden-regress-'))
process.env.DSH_HOME = home

const endpoint = await startDeepSeekEndpoint()
const rows: CaseRow[] = []
try {
  for (const testCase of REGRESSION_CASES) rows.push(await runCase(testCase, endpoint))
  rows.push(...(await cordisRows()))
  rows.push(...(await escalationRows()))
  rows.push(...(await mcpProfileRows()))
  rows.push(...(await mcpRepairRows()))
  rows.push(...(await mcpCheckRows()))
  rows.push(...(await gatewayRows()))
} finally {
  await endpoint.close()
  rmSync(home, { recursive: true, force: true })
}

console.log(values.json ? JSON.stringify(rows, null, 2) : renderTable(rows))
process.exitCode = rows.every((row) => row.fixed) ? 0 : 1
