// The compat corpus lives in the compat package (its servers are compat's devDependencies). Importing its server list
// by relative path keeps one list of servers and launch options; its own imports resolve from compat/node_modules.
import { collectListings } from '../../compat/src/collect.ts'
import { compatServers } from '../../compat/src/servers.ts'
import { collectFirstPartyTools } from './first-party-tools.ts'
import type { MeasuredOutput } from './gateway-report.ts'
import { type CorpusTool, wireByteSizes } from './wire-bytes.ts'

/**
 * Wire bytes per model route divided by stock's, over the compat table's real MCP servers (listed live over stdio)
 * and DSH's first-party tools. Bytes, not time, so the numbers are exact and the same on every machine.
 */
export async function wireBytes(): Promise<MeasuredOutput> {
  const listings = await collectListings(compatServers())
  const servers: CorpusTool[] = listings.flatMap((listing) =>
    listing.tools.map((tool) => ({
      source: `${listing.packageName}@${listing.packageVersion}`,
      name: String(tool.name),
      inputSchema: tool.inputSchema,
    })),
  )
  const failed = listings.filter((listing) => listing.failure !== undefined)
  const firstParty = await collectFirstPartyTools()
  const dsh: CorpusTool[] = firstParty.definitions.map((definition) => ({
    source: 'dsh',
    name: definition.name,
    inputSchema: definition.parameters,
  }))
  const sizes = [
    ...wireByteSizes(`compat (${listings.length - failed.length} servers)`, servers),
    ...wireByteSizes('dsh first-party', dsh),
  ]
  const notes = failed.map((listing) => `not listed ${listing.packageName}: ${listing.failure}`)
  return {
    results: [],
    sizes: sizes.map((size, index) => (index === 0 ? { ...size, notes: [...notes, ...size.notes] } : size)),
  }
}
