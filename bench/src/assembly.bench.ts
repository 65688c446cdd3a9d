import type { Context } from '@deepseek-ai/cordis'
import type { AssembleContext, PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import type { OverlayConfig } from '@dsh-harden/overlay'
import { type AsyncSide, compareAsync } from './async-compare.ts'
import type { MeasuredOutput } from './gateway-report.ts'
import { simpleTools } from './generated-tools.ts'
import type { ComparisonResult } from './harness.ts'
import { createToolRuntime } from './runtime.ts'

/**
 * `SystemPrompt.assemble()` (dsh-system-prompt) with K registered tools, stock vs `HardenOverlay`: the work DSH does
 * before every model step (`Agent` in dsh-agent-loop calls it once per step). The assembly is asked for the way the
 * agent loop asks: `assembleContextFor(agent)` from dsh-agent, `{ agent, scope: agent }`, with the `provider` and
 * `model` variables the `AgentLoop` service registers, so the overlay sees the DeepSeek route it would see in the app.
 */

/** The route of the app's headless DeepSeek agent: dsh-llm-deepseek's route key and DeepSeek's chat model. */
const ROUTE = { provider: 'deepseek-official', model: 'deepseek-chat' } as const

/** The part of dsh-agent's `Agent` that the prompt variables and the overlay's route reading look at. */
interface AgentLike {
  readonly options: { readonly provider: string; readonly model: string }
}

/** `{ agent, scope: agent }`: dsh-agent's `assembleContextFor(agent)` without a turn signal. */
function assembleContextFor(agent: AgentLike): AssembleContext {
  return { agent, scope: agent } as AssembleContext
}

/** What `AgentLoop`'s constructor (dsh-agent-loop) registers: the agent's route as prompt variables. */
function installRouteVariables(app: Context): void {
  const agentOf = (context: AssembleContext) => (context as { agent?: AgentLike }).agent
  app.systemPrompt.variable('provider', (context) => agentOf(context)?.options.provider)
  app.systemPrompt.variable('model', (context) => agentOf(context)?.options.model)
}

interface Composition {
  readonly app: Context
  readonly context: AssembleContext
}

async function compose(
  overlay: OverlayConfig | undefined,
  tools: readonly ToolDefinition[],
): Promise<Composition> {
  const app = await createToolRuntime({ hardened: overlay !== undefined, overlay })
  installRouteVariables(app)
  for (const tool of tools) app.tools.register(tool)
  return { app, context: assembleContextFor({ options: ROUTE }) }
}

const names = (assembly: PromptAssembly): string[] => assembly.tools.map((tool) => tool.name)

/**
 * Fails before any timing unless the composition really assembles through the overlay on the DeepSeek route: an
 * any-JSON slot must reach the assembly as `type: "string"` (JSON text), which only the overlay's projection does.
 */
async function assertRouteProjects(overlay: OverlayConfig): Promise<void> {
  const probe: ToolDefinition = {
    ...simpleTools(1, 'probe')[0]!,
    parameters: { type: 'object', properties: { payload: { description: 'any JSON' } } },
  }
  const { app, context } = await compose(overlay, [probe])
  const assembly = await app.systemPrompt.assemble(context)
  const sent = assembly.tools.find((tool) => tool.name === probe.name)
  const payload = (sent?.parameters.properties as Record<string, { type?: unknown }> | undefined)?.payload
  if (payload?.type !== 'string') {
    throw new Error(
      `assembly.bench: with the overlay (${JSON.stringify(overlay)}) on route ${JSON.stringify(ROUTE)}, an any-JSON slot ` +
        `was assembled as ${JSON.stringify(payload)}, not JSON text: the overlay is not on the assembly path; fix compose()`,
    )
  }
}

/**
 * One side: the composition is built once (untimed) and every sample times one `assemble()` on it, which is what
 * each model step of a session does with an unchanged tool set.
 */
function assembling(label: string, { app, context }: Composition): AsyncSide {
  return {
    label,
    async prepare() {
      return {
        async run() {
          await app.systemPrompt.assemble(context)
          return undefined
        },
        async dispose() {},
      }
    },
  }
}

/** Both sides must assemble the same tool names, all K of them, or the ratio compares different work. */
async function assertSameTools(count: number, peer: Composition, subject: Composition, label: string) {
  const [stock, hardened] = await Promise.all([
    peer.app.systemPrompt.assemble(peer.context),
    subject.app.systemPrompt.assemble(subject.context),
  ])
  const same = names(stock).join('\n') === names(hardened).join('\n')
  if (!same || stock.tools.length !== count) {
    throw new Error(
      `assembly.bench: ${label} assembled ${hardened.tools.length} tools and stock ${stock.tools.length}, of ${count} ` +
        'registered; both sides must assemble the same K tools',
    )
  }
}

export const ASSEMBLY_TOOL_COUNTS = [500, 2000, 4000] as const

/** Measured rounds per size (after 3 warm-up rounds), so each ratio has an interquartile range worth reading. */
const ROUNDS: Readonly<Record<number, number>> = { 500: 40, 2000: 30, 4000: 30 }

const CONFIGURATIONS: readonly (readonly [string, OverlayConfig])[] = [
  ['overlay assemble()', {}],
  ['overlay+deepseek assemble()', { route: 'deepseek' }],
]

export async function assembly(): Promise<MeasuredOutput> {
  for (const [, overlay] of CONFIGURATIONS) await assertRouteProjects(overlay)
  const results: ComparisonResult[] = []
  for (const count of ASSEMBLY_TOOL_COUNTS) {
    const tools = simpleTools(count)
    for (const [label, overlay] of CONFIGURATIONS) {
      process.stderr.write(`running assembly: ${count} tools (${label})…\n`)
      const peer = await compose(undefined, tools)
      const subject = await compose(overlay, tools)
      await assertSameTools(count, peer, subject, label)
      results.push(
        await compareAsync({
          name: `${count} simple tools`,
          opsPerSample: 1,
          peer: assembling('stock assemble()', peer),
          subject: assembling(label, subject),
          warmup: 3,
          rounds: ROUNDS[count] ?? 15,
          notes: [
            `${count} tools of 3 properties (required string, bounded integer, flag), registered before timing; one op = one assemble() with { agent, scope: agent } on route ${ROUTE.provider}/${ROUTE.model}`,
          ],
        }),
      )
    }
  }
  return { results, sizes: [] }
}
