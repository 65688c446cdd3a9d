import { loadReferenceCorpus } from '@dsh-harden/testkit/mcp-servers'
import { createGateway, GATEWAY_TOOLS } from './gateway-deps.ts'
import type { MeasuredOutput, SizeResult } from './gateway-report.ts'
import { gatewayConfig, referenceServerSet } from './gateway-servers.ts'

/**
 * Context cost (P4): the bytes of tool definitions a model request carries with the 5 MCP reference servers.
 * Stock DSH registers one tool per MCP tool (`mcp__<server>__<tool>`, the server's `inputSchema` as `parameters`);
 * the gateway registers its five fixed tools. Both are measured as the OpenAI-style function definitions the
 * DeepSeek serializer sends (`{ type: 'function', function: { name, description, parameters } }`). The model pays
 * for a server's catalog only when it asks (`mcp_servers`, then `mcp_tools { server }`), and those are reported
 * too. Tokens ≈ bytes ÷ 4 (an estimate; no tokenizer is installed).
 */
const bytes = (value: unknown): number =>
  Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8')

const asFunction = (name: string, description: string | undefined, parameters: unknown) => ({
  type: 'function',
  function: { name, description: description ?? '', parameters },
})

export async function gatewayContext(): Promise<MeasuredOutput> {
  const corpus = await loadReferenceCorpus({ raw: true })
  const failed = corpus.entries.filter((entry) => !entry.ok).map((entry) => entry.server)
  const catalogs = corpus.entries.flatMap((entry) =>
    entry.ok && entry.list && 'rawTools' in entry.list
      ? [
          {
            server: entry.server,
            raw: (entry.list as { rawTools: readonly Record<string, unknown>[] }).rawTools,
          },
        ]
      : [],
  )
  const full = catalogs.flatMap(({ server, raw }) =>
    raw.map((tool) =>
      asFunction(
        `mcp__${server}__${String(tool.name)}`,
        tool.description as string | undefined,
        tool.inputSchema,
      ),
    ),
  )
  const rawListBytes = catalogs.reduce((sum, { raw }) => sum + bytes({ tools: raw }), 0)
  const gatewayTools = GATEWAY_TOOLS.map((tool) => asFunction(tool.name, tool.description, tool.parameters))

  // What the model reads when it looks: mcp_servers (never connects), then one server's catalog from the cache.
  const set = await referenceServerSet(5)
  let serversText = ''
  const perServer: string[] = []
  try {
    const { gateway } = await createGateway(gatewayConfig(set))
    const mcpTools = GATEWAY_TOOLS.find((tool) => tool.name === 'mcp_tools')!
    for (const server of set.servers) await gateway.listTools(server.name, { refresh: true })
    serversText = gateway.servers()
    for (const server of set.servers) {
      const text = await mcpTools.run(gateway, { server: server.name }, new AbortController().signal)
      perServer.push(`${server.name} ${bytes(String(text)).toLocaleString('en-US')}`)
    }
    await gateway.dispose()
  } finally {
    await set.remove()
  }

  const toolCount = full.length
  const fullBytes = bytes(full)
  const gatewayBytes = bytes(gatewayTools)
  const size = (name: string, subjectLabel: string, subjectBytes: number, notes: string[]): SizeResult => ({
    kind: 'size',
    name,
    peer: { label: `stock: ${toolCount} MCP tools`, bytes: fullBytes },
    subject: { label: subjectLabel, bytes: subjectBytes },
    ratio: subjectBytes / fullBytes,
    notes,
  })
  return {
    results: [],
    sizes: [
      size('tool definitions in every request', `gateway: ${gatewayTools.length} tools`, gatewayBytes, [
        `servers: ${catalogs.map(({ server, raw }) => `${server} ${raw.length}`).join(', ')}` +
          (failed.length > 0 ? `; could not list: ${failed.join(', ')}` : ''),
        `raw tools/list JSON of the 5 servers: ${rawListBytes.toLocaleString('en-US')} bytes`,
        'target (P4): the gateway tools plus a server list ≤ ~1k tokens',
      ]),
      size(
        '… plus one mcp_servers result',
        'gateway tools + mcp_servers',
        gatewayBytes + bytes(serversText),
        [
          `mcp_servers text: ${bytes(serversText).toLocaleString('en-US')} bytes (never connects)`,
          `one mcp_tools { server } answer, from the cache (bytes): ${perServer.join(', ')}`,
        ],
      ),
    ],
  }
}
