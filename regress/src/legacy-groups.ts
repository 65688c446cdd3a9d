// TEMPORARY (H7): the not-yet-converted row files as group modules, one export per group.
import { legacyRun } from './legacy-rows.ts'

export const registration = {
  run: legacyRun('registration', async () => {
    const { REGRESSION_CASES } = await import('./cases.ts')
    const { startDeepSeekEndpoint } = await import('./deepseek-endpoint.ts')
    const { runCase } = await import('./run-case.ts')
    const endpoint = await startDeepSeekEndpoint()
    try {
      const rows = []
      for (const testCase of REGRESSION_CASES) rows.push(await runCase(testCase, endpoint))
      return rows
    } finally {
      await endpoint.close()
    }
  }),
}
export const cordis = {
  run: legacyRun('cordis-1122', async () => (await import('./cordis-rows.ts')).cordisRows()),
}
export const escalation = {
  run: legacyRun('escalation-1149', async () => (await import('./escalation-rows.ts')).escalationRows()),
}
export const schemas = {
  run: legacyRun('mcp-schemas', async () => (await import('./mcp-profile-rows.ts')).mcpProfileRows()),
}
export const intake = {
  run: legacyRun('mcp-intake', async () => (await import('./mcp-repair-rows.ts')).mcpRepairRows()),
}
export const check = {
  run: legacyRun('mcp-check', async () => (await import('./mcp-check-rows.ts')).mcpCheckRows()),
}
export const gateway = {
  run: legacyRun('gateway', async () => (await import('./gateway-rows.ts')).gatewayRows()),
}
