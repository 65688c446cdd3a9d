import { readFileSync } from 'node:fs'
import type { Context } from '@deepseek-ai/cordis'
import { childPids, newChildren } from '@dsh-harden/lazy-mcp/testing'
import { type AsyncSide, compareAsync } from './async-compare.ts'
import { createGateway, DshMcpClient, LazyMcp, waitForExit } from './gateway-deps.ts'
import { type MeasuredOutput, ms } from './gateway-report.ts'
import { gatewayConfig, pool, referenceServerSet } from './gateway-servers.ts'
import { createToolRuntime } from './runtime.ts'
import { quantile } from './stats.ts'

/**
 * Plugin activation with N configured servers (P1): stock DSH's `dsh-mcp-client`, one instance per server loaded
 * together, connects and lists every server before activation resolves; the lazy gateway plugin
 * (`@dsh-harden/lazy-mcp`, `LazyMcp`) registers its five tools and starts nothing. Both are timed from the first
 * `app.plugin()` to the last one resolving, in the same DSH composition (`createToolRuntime`), and the direct
 * children of this process are counted from /proc right after. The gateway runs with a valid metadata cache.
 */
export const ACTIVATION_SERVERS = 20
const TARGET_MS = 50

function rssMb(pids: readonly number[]): number {
  let kb = 0
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      kb += Number(match?.[1] ?? 0)
    } catch {}
  }
  return Math.round(kb / 1024)
}

interface Seen {
  children: number[]
  rss: number[]
}

function side(label: string, load: (app: Context) => PromiseLike<unknown>, seen: Seen): AsyncSide {
  return {
    label,
    async prepare() {
      const app = await createToolRuntime({ hardened: false })
      let started: number[] = []
      let before: Set<number> | undefined
      return {
        async run() {
          before = childPids()
          await load(app)
          return undefined
        },
        async dispose() {
          started = newChildren(before)
          seen.children.push(started.length)
          seen.rss.push(rssMb(started))
          await app.fiber.dispose()
          await Promise.all(started.map((pid) => waitForExit(pid, 5000)))
        },
      }
    },
  }
}

export async function gatewayActivation(): Promise<MeasuredOutput> {
  const set = await referenceServerSet(ACTIVATION_SERVERS)
  try {
    // A valid cache, as after the first day of use: every server listed once through the gateway.
    const { gateway } = await createGateway(gatewayConfig(set))
    await pool(set.servers, 4, async (server) => {
      await gateway.listTools(server.name, { refresh: true })
    })
    await gateway.dispose()

    const eager: Seen = { children: [], rss: [] }
    const lazy: Seen = { children: [], rss: [] }
    const stockConfigs = set.servers.map((server) => ({
      transport: 'stdio',
      serverName: server.name,
      command: server.command,
      args: [...server.args],
      env: server.env,
      cwd: server.cwd,
      reconnect: { enabled: false },
    }))
    const result = await compareAsync({
      name: `activation, ${ACTIVATION_SERVERS} servers`,
      opsPerSample: 1,
      warmup: 1,
      rounds: 3,
      peer: side(
        'eager dsh-mcp-client',
        (app) =>
          Promise.all(stockConfigs.map((config) => app.plugin(DshMcpClient as never, config as never))),
        eager,
      ),
      subject: side(
        'lazy-mcp plugin',
        (app) => app.plugin(LazyMcp as never, gatewayConfig(set) as never),
        lazy,
      ),
    })
    const measured = (list: number[]) => list.slice(1) // each side's warm-up sample comes first
    const lazyMs = result.subject.nsPerOp
    return {
      results: [
        {
          ...result,
          notes: [
            `servers: ${ACTIVATION_SERVERS} = 4 × the 5 MCP reference servers; the gateway with a valid metadata cache`,
            `children after activation: eager ${measured(eager.children).join('/')} (≈${quantile(measured(eager.rss), 0.5)} MB RSS), ` +
              `lazy ${measured(lazy.children).join('/')}`,
            `eager ${ms(result.peer.nsPerOp)} ms vs lazy ${ms(lazyMs)} ms: eager ÷ lazy = ${Math.round(1 / result.ratio.median).toLocaleString('en-US')}×`,
            `lazy activation ${ms(lazyMs)} ms (target ≤ ${TARGET_MS} ms, 0 children): ` +
              (lazyMs <= TARGET_MS * 1e6 && measured(lazy.children).every((count) => count === 0)
                ? 'met'
                : 'MISSED'),
          ],
        },
      ],
      sizes: [],
    }
  } finally {
    await set.remove()
  }
}
