import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import LlmRuntime, { createUserMessage, type GenerateOptions, type StreamChunk } from '@deepseek-ai/dsh-llm'
import * as LlmDeepseek from '@deepseek-ai/dsh-llm-deepseek'
import * as DshMcpClient from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt, { type PromptAssembly, renderPrompt } from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { LazyMcp } from '@dsh-harden/lazy-mcp'
import { childPids, newChildren } from '@dsh-harden/lazy-mcp/testing'
import { HardenOverlay } from '@dsh-harden/overlay'
import { REFERENCE_SERVERS, type ServerDescriptor, waitForExit } from '@dsh-harden/testkit/mcp-servers'
import { startDeepSeekEndpoint } from './deepseek-endpoint.ts'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Observed, Row } from './row.ts'

/**
 * Seed 004 as a report row: a session with the 5 MCP reference servers configured. Stock DSH's
 * `@deepseek-ai/dsh-mcp-client` (one instance per server, as cordis.yml loads it) starts every server during
 * activation and puts every tool schema in every model request; the lazy gateway plugin registers its fixed tools,
 * starts nothing, and sends a fraction of the bytes. Both run in a real DSH composition (system prompt, tool
 * runtime, LLM runtime, DeepSeek adapter) against the local DeepSeek endpoint, which records the request body.
 *
 * Stock's eager start is a cost, not a defect: the row is a `cost` row. Both legs are judged alike: a leg works when
 * tools are registered and the turn works. Its figures, each measured on both legs: server processes started during
 * activation (threshold: the gateway starts none), and the bytes of the tool schemas in the model request (threshold:
 * at most a quarter of stock's; tokens estimated as bytes ÷ 4, no tokenizer). Check: stock did start every
 * configured server, so the comparison is about all five.
 */
const GROUP = 'gateway'
const API_KEY_ENV = 'DSH_HARDEN_REGRESS_KEY'
const MAX_FRACTION = 0.25

interface Observation {
  readonly tools: number
  readonly toolBytes: number
  readonly started: number
  readonly activationMs: number
  readonly turn: { ok: true } | { ok: false; error: string }
}

interface Launch {
  readonly server: ServerDescriptor
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
}

async function launches(workRoot: string): Promise<Launch[]> {
  return Promise.all(
    REFERENCE_SERVERS.map(async (server) => {
      const cwd = await mkdtemp(join(workRoot, `${server.id}-`))
      const launch = await server.launch(cwd)
      return { server, args: [server.binPath, ...launch.args], env: { ...launch.env }, cwd }
    }),
  )
}

interface Services {
  systemPrompt: { assemble(): Promise<PromptAssembly> }
  llm: { stream(options: GenerateOptions): AsyncIterable<StreamChunk> }
  tools: { schemas(): { name: string }[] }
}

async function turn(app: Services): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    const assembly = await app.systemPrompt.assemble()
    for await (const chunk of app.llm.stream({
      provider: 'deepseek-official',
      model: 'deepseek-v4-flash',
      system: renderPrompt(assembly),
      tools: assembly.tools,
      messages: [createUserMessage({ content: [{ type: 'text', text: 'hello' }], source: { kind: 'user' } })],
    })) {
      if (chunk.type === 'finish' && chunk.reason.kind === 'error')
        return { ok: false, error: chunk.reason.failure.message }
    }
    return { ok: true }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
}

/** One session: the DSH composition, then `load` (timed), then one turn whose request body is measured. */
async function observe(
  hardened: boolean,
  load: (app: Context) => Promise<void>,
  baseURL: string,
  requests: readonly { body: string }[],
): Promise<Observation> {
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  await app.plugin(LlmRuntime)
  await app.plugin(LlmDeepseek, {
    baseURL,
    apiKeyEnv: API_KEY_ENV,
    thinking: 'disabled',
    reasoningEffort: 'off',
    retryPolicy: { mode: 'normal', maxRetries: 0 },
  })
  if (hardened) await app.plugin(HardenOverlay)
  const services = app as unknown as Services
  const toolsBefore = services.tools.schemas().length
  const childrenBefore = childPids()
  if (childrenBefore === undefined)
    throw new Error(
      'gateway rows count the MCP servers started from Linux /proc, which this host does not have',
    )
  const started = performance.now()
  let children: number[] = []
  try {
    await load(app)
    const activationMs = performance.now() - started
    children = newChildren(childrenBefore)
    const tools = services.tools.schemas().length - toolsBefore
    const first = requests.length
    const result = await turn(services)
    const body = requests[first]?.body
    const toolBytes = body === undefined ? 0 : Buffer.byteLength(JSON.stringify(JSON.parse(body).tools ?? []))
    return { tools, toolBytes, started: children.length, activationMs, turn: result }
  } finally {
    await app.fiber.dispose()
    await Promise.all(children.map((pid) => waitForExit(pid, 5000)))
  }
}

const kb = (bytes: number) =>
  `${bytes.toLocaleString('en-US')} bytes (≈${Math.round(bytes / 4).toLocaleString('en-US')} tokens)`

function turnText(turn: Observation['turn']): string {
  return turn.ok ? 'turn ok' : `turn fails: ${turn.error}`
}

function leg(observation: Observation, what: string): Observed {
  const works = observation.tools > 0 && observation.turn.ok
  return {
    outcome: !works ? 'turn-fails' : observation.started > 0 ? 'works-servers-started' : 'works-none-started',
    works,
    detail:
      `${what}: ${count(observation.tools, 'tool')} registered, ${count(observation.started, 'server')} started at activation ` +
      `(${Math.round(observation.activationMs)} ms), tool schemas in the request ${kb(observation.toolBytes)}; ` +
      turnText(observation.turn),
  }
}

/** The gateway case: stock `dsh-mcp-client` × 5 reference servers versus the lazy gateway plugin. */
export async function run(_context: GroupContext): Promise<Row[]> {
  const workRoot = await mkdtemp(join(tmpdir(), 'dsh-harden-gateway-rows-'))
  const savedHome = process.env.DSH_HOME
  // The DeepSeek adapter writes an anonymous id under DSH_HOME on the first request: keep it in the temp dir.
  if (savedHome === undefined) process.env.DSH_HOME = workRoot
  process.env[API_KEY_ENV] = 'sk-regress'
  const endpoint = await startDeepSeekEndpoint()
  try {
    const servers = await launches(workRoot)
    const stock = await observe(
      false,
      async (app) => {
        // One plugin instance per server, loaded together as a profile's cordis.yml would.
        await Promise.all(
          servers.map((launch) =>
            app.plugin(
              DshMcpClient as never,
              {
                transport: 'stdio',
                serverName: launch.server.id,
                command: process.execPath,
                args: [...launch.args],
                env: launch.env,
                cwd: launch.cwd,
                reconnect: { enabled: false },
              } as never,
            ),
          ),
        )
      },
      endpoint.baseURL,
      endpoint.requests,
    )
    const hardened = await observe(
      true,
      async (app) => {
        await app.plugin(
          LazyMcp as never,
          {
            cachePath: join(workRoot, 'lazy-mcp', 'tool-cache.json'),
            servers: servers.map((launch) => ({
              name: launch.server.id,
              transport: 'stdio',
              description: launch.server.packageName,
              command: process.execPath,
              args: [...launch.args],
              env: launch.env,
              cwd: launch.cwd,
            })),
          } as never,
        )
      },
      endpoint.baseURL,
      endpoint.requests,
    )
    return [
      {
        id: 'lazy-mcp-gateway-5-servers',
        group: GROUP,
        kind: 'cost',
        proves:
          'with five MCP servers configured, sessions work both ways; the gateway starts no server process before a tool is used and sends a fraction of the tool-schema bytes',
        source:
          'seed 004 (5 MCP reference servers: playwright, everything, filesystem, memory, sequential-thinking)',
        stock: leg(stock, 'DSH dsh-mcp-client ×5'),
        hardened: leg(hardened, 'DSH + lazy-mcp gateway'),
        costs: [
          {
            what: 'MCP server processes started during activation',
            unit: 'process',
            units: 'processes',
            stock: stock.started,
            hardened: hardened.started,
            max: 0,
          },
          {
            what: 'bytes of tool schemas in the model request',
            unit: 'byte',
            stock: stock.toolBytes,
            hardened: hardened.toolBytes,
            max: MAX_FRACTION,
            relative: true,
          },
        ],
        checks: [
          {
            what: `stock started every configured server (${stock.started} of ${count(servers.length, 'server')}), so the figures compare all five`,
            ok: stock.started === servers.length,
          },
        ],
      },
    ]
  } finally {
    await endpoint.close()
    if (savedHome === undefined) delete process.env.DSH_HOME
    await rm(workRoot, { recursive: true, force: true })
  }
}
