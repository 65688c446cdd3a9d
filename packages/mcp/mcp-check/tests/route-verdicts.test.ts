import { judgeMcpToolList, PROFILE_IDS, toolRouteVerdict } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'
import { profileVerdicts } from '../src/clients/profiles.ts'
import { checkServer, renderReport } from '../src/index.ts'
import { binOf, listedTools, nodeTarget } from './servers.ts'

const EVERYTHING = { bin: binOf('@modelcontextprotocol/server-everything'), args: ['stdio'] }

describe('mcp check reports each route with the verdicts pnpm compat and sanitize show', () => {
  it('server-everything: every tool in exactly one verdict per route, the one toolRouteVerdict gives', async () => {
    const tools = await listedTools(EVERYTHING.bin, EVERYTHING.args, {})
    const verdicts = profileVerdicts(tools)
    expect(verdicts.map((v) => v.profile)).toEqual([...PROFILE_IDS])
    for (const route of verdicts) {
      const expected = {
        'as-is': [] as string[],
        repaired: [] as string[],
        decoded: [] as string[],
        refused: [] as string[],
      }
      for (const verdict of judgeMcpToolList(tools, { profile: route.profile }))
        expected[toolRouteVerdict(tools[verdict.entry], verdict, route.profile).verdict].push(verdict.name)
      expect(route.verdicts, route.profile).toEqual(expected)
      expect(Object.values(route.verdicts).flat().length).toBe(tools.length)
    }
  })

  it('the text report has one line per route: as is / repaired / decoded / refused', {
    timeout: 600_000,
  }, async () => {
    const report = await checkServer(nodeTarget(EVERYTHING.bin, EVERYTHING.args), {
      clients: false,
      calls: { mode: 'none', named: new Map() },
    })
    const text = renderReport(report)
    expect(text).toMatch(
      /^Each route with dsh-harden \(sent as is \/ repaired \/ projected with a decoder \/ refused/m,
    )
    for (const route of report.profiles) {
      const counts = ['as-is', 'repaired', 'decoded', 'refused'].map(
        (kind) => route.verdicts[kind as keyof typeof route.verdicts].length,
      )
      expect(text).toContain(`  ${route.profile.padEnd(13)}  ${counts.join(' / ')}`)
    }
  })
})
