import { rewriteToolsListText } from '@dsh-harden/mcp-repair'
import { STDIO_REPAIR_ENTRY } from '@dsh-harden/mcp-repair/fixtures'
import { type AsyncSide, compareAsync } from './async-compare.ts'
import { type MeasuredOutput, ms } from './gateway-report.ts'
import { referenceServerSet } from './gateway-servers.ts'
import { type Comparison, compare } from './harness.ts'
import { type OpenClient, openStdioClient, type StdioCommand, timedCalls } from './sdk-client.ts'
import { quantile } from './stats.ts'

/**
 * The repair proxy (`dsh-harden mcp repair -- <server>`) against a direct connection to the same server, and the
 * cost of rewriting `tools/list` as lists grow:
 * - per call: the official SDK client calling server-everything's `echo`, directly or through the stdio proxy;
 * - rewrite: one 10,000-tool response against ten 1,000-tool responses (same number of tools, one in seven with
 *   `inputSchema: {}`); a ratio near 1 means the rewrite is linear in the number of tools.
 */
const CALLS = 200
const TARGET_P50_MS = 1
const echo = (i: number) => ({ message: `bench ${i}` })

function warmSide(label: string, target: StdioCommand): AsyncSide {
  return {
    label,
    async prepare() {
      const open: OpenClient = await openStdioClient(target)
      for (let i = 0; i < 20; i++) await open.client.callTool({ name: 'echo', arguments: echo(i) })
      return {
        run: () => timedCalls(CALLS, (i) => open.client.callTool({ name: 'echo', arguments: echo(i) })),
        dispose: open.close,
      }
    },
  }
}

function toolsListResponse(count: number): string {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}`,
    inputSchema:
      i % 7 === 0
        ? {}
        : { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
  }))
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } })
}

function rewriteAll(texts: readonly string[]): void {
  for (const text of texts) rewriteToolsListText(text, JSON.parse(text), () => true, 'bench')
}

function rewriteScaling(): Comparison {
  const small = Array.from({ length: 10 }, () => toolsListResponse(1_000))
  const large = [toolsListResponse(10_000)]
  const side = (label: string, texts: readonly string[]) => ({
    label,
    prepare: () => ({ run: () => rewriteAll(texts), dispose: () => {} }),
  })
  return {
    name: 'tools/list rewrite, 10,000 tools per sample',
    opsPerSample: 10_000,
    peer: side('10 × 1,000-tool lists', small),
    subject: side('1 × 10,000-tool list', large),
    warmup: 3,
    rounds: 15,
    notes: ['per op = per tool, JSON.parse of the response included on both sides'],
  }
}

export async function repairProxy(): Promise<MeasuredOutput> {
  const set = await referenceServerSet(1, 'everything')
  try {
    const server = set.servers[0]!
    const proxied: StdioCommand = {
      command: process.execPath,
      args: [STDIO_REPAIR_ENTRY, '--', server.command, ...server.args],
      env: server.env,
      cwd: server.cwd,
    }
    const warm = await compareAsync({
      name: `call ×${CALLS} through mcp repair, server-everything echo`,
      opsPerSample: CALLS,
      warmup: 1,
      rounds: 5,
      peer: warmSide('direct SDK client', server),
      subject: warmSide('through mcp repair (stdio)', proxied),
    })
    const p = (samples: readonly number[], q: number) => quantile(samples, q)
    const added = p(warm.subjectSamples, 0.5) - p(warm.peerSamples, 0.5)
    const { peerSamples, subjectSamples, ...result } = warm
    return {
      results: [
        {
          ...result,
          notes: [
            `per call p50/p95: direct ${ms(p(peerSamples, 0.5))}/${ms(p(peerSamples, 0.95))} ms, ` +
              `proxied ${ms(p(subjectSamples, 0.5))}/${ms(p(subjectSamples, 0.95))} ms`,
            `added by the proxy: p50 ${ms(added)} ms (target ≤ ${TARGET_P50_MS} ms: ${added <= TARGET_P50_MS * 1e6 ? 'met' : 'MISSED'})`,
          ],
        },
        await compare(rewriteScaling()),
      ],
      sizes: [],
    }
  } finally {
    await set.remove()
  }
}
