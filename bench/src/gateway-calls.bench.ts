import { type AsyncSide, type AsyncTrial, compareAsync } from './async-compare.ts'
import { createGateway, type LazyMcpGateway } from './gateway-deps.ts'
import { type MeasuredOutput, ms } from './gateway-report.ts'
import { type BenchServer, gatewayConfig, referenceServerSet, type ServerSet } from './gateway-servers.ts'
import { type OpenClient, openStdioClient, timedCalls } from './sdk-client.ts'
import { quantile } from './stats.ts'

/**
 * Calls through the gateway against a direct official-SDK connection to the same server (server-everything,
 * `echo`), P2 and P3:
 * - first call on a dormant server (spawn, initialize, the gateway's tools/list intake, the call) against a direct
 *   cold start (an SDK `Client` spawning the same server: connect, then the call);
 * - warm per-call overhead: 200 sequential calls on an open connection, each call timed on its own.
 */
const WARM_CALLS = 200
const WARM_TARGET_MS = 1
const echo = (i: number) => ({ message: `bench ${i}` })

function directClient(server: BenchServer): Promise<OpenClient> {
  return openStdioClient(server)
}

async function gatewayOn(set: ServerSet): Promise<LazyMcpGateway> {
  const { gateway } = await createGateway(gatewayConfig(set, { idleDisconnectMs: 600_000 }))
  return gateway
}

function firstCall(set: ServerSet): { peer: AsyncSide; subject: AsyncSide } {
  const server = set.servers[0]!
  return {
    peer: {
      label: 'direct SDK cold start',
      async prepare(): Promise<AsyncTrial> {
        let close = async () => {}
        return {
          async run() {
            const direct = await directClient(server)
            close = direct.close
            await direct.client.callTool({ name: 'echo', arguments: echo(0) })
            return undefined
          },
          dispose: () => close(),
        }
      },
    },
    subject: {
      label: 'gateway first call',
      async prepare(): Promise<AsyncTrial> {
        const gateway = await gatewayOn(set)
        return {
          async run() {
            await gateway.call(server.name, 'echo', echo(0))
            return undefined
          },
          dispose: () => gateway.dispose(),
        }
      },
    },
  }
}

function warmCalls(set: ServerSet): { peer: AsyncSide; subject: AsyncSide } {
  const server = set.servers[0]!
  return {
    peer: {
      label: 'direct SDK client',
      async prepare(): Promise<AsyncTrial> {
        const direct = await directClient(server)
        for (let i = 0; i < 20; i++) await direct.client.callTool({ name: 'echo', arguments: echo(i) })
        return {
          run: () =>
            timedCalls(WARM_CALLS, (i) => direct.client.callTool({ name: 'echo', arguments: echo(i) })),
          dispose: direct.close,
        }
      },
    },
    subject: {
      label: 'through the gateway',
      async prepare(): Promise<AsyncTrial> {
        const gateway = await gatewayOn(set)
        for (let i = 0; i < 20; i++) await gateway.call(server.name, 'echo', echo(i))
        return {
          run: () => timedCalls(WARM_CALLS, (i) => gateway.call(server.name, 'echo', echo(i))),
          dispose: () => gateway.dispose(),
        }
      },
    },
  }
}

export async function gatewayCalls(): Promise<MeasuredOutput> {
  const set = await referenceServerSet(1, 'everything')
  try {
    const first = await compareAsync({
      name: 'first call, server-everything echo',
      opsPerSample: 1,
      warmup: 1,
      rounds: 7,
      ...firstCall(set),
      notes: [
        'both spawn the server and initialize; the gateway also lists tools (tolerant intake, writes the cache) before calling',
      ],
    })
    const warm = await compareAsync({
      name: `warm call ×${WARM_CALLS}, server-everything echo`,
      opsPerSample: WARM_CALLS,
      warmup: 1,
      rounds: 5,
      ...warmCalls(set),
    })
    const p = (samples: readonly number[], q: number) => quantile(samples, q)
    const p50Added = p(warm.subjectSamples, 0.5) - p(warm.peerSamples, 0.5)
    const p95Added = p(warm.subjectSamples, 0.95) - p(warm.peerSamples, 0.95)
    const { peerSamples: _a, subjectSamples: _b, ...firstResult } = first
    const { peerSamples: _c, subjectSamples: _d, ...warmResult } = warm
    return {
      results: [
        {
          ...firstResult,
          notes: [
            ...first.notes,
            `direct ${ms(first.peer.nsPerOp)} ms, gateway ${ms(first.subject.nsPerOp)} ms (medians of ${first.rounds})`,
          ],
        },
        {
          ...warmResult,
          notes: [
            `per call p50/p95: direct ${ms(p(warm.peerSamples, 0.5))}/${ms(p(warm.peerSamples, 0.95))} ms, ` +
              `gateway ${ms(p(warm.subjectSamples, 0.5))}/${ms(p(warm.subjectSamples, 0.95))} ms ` +
              `(${warm.subjectSamples.length} calls per side)`,
            `added by the gateway: p50 ${ms(p50Added)} ms, p95 ${ms(p95Added)} ms ` +
              `(target p50 ≤ ${WARM_TARGET_MS} ms: ${p50Added <= WARM_TARGET_MS * 1e6 ? 'met' : 'MISSED'})`,
            'the gateway call includes its delivery tagging, the idle-timer reset and rendering the result as text',
          ],
        },
      ],
      sizes: [],
    }
  } finally {
    await set.remove()
  }
}
