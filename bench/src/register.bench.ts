import type { Context } from '@deepseek-ai/cordis'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import type { OverlayConfig } from '@dsh-harden/overlay'
import { JsonSchemaError } from '@dsh-harden/tools'
import { collectFirstPartyTools } from './first-party-tools.ts'
import { generateTools } from './generated-tools.ts'
import type { Comparison, Side } from './harness.ts'
import { createToolRuntime } from './runtime.ts'

/**
 * One sample: fresh runtimes (untimed), then every definition registered into each of them through the cordis
 * proxy, as a plugin would (timed), then every registration and runtime disposed (untimed).
 */
function registerInto(
  label: string,
  overlay: OverlayConfig | undefined,
  definitions: readonly ToolDefinition[],
  runtimes: number,
  listed: boolean,
): Side {
  return {
    label,
    async prepare() {
      const apps: Context[] = []
      for (let index = 0; index < runtimes; index++)
        apps.push(await createToolRuntime({ hardened: overlay !== undefined, overlay }))
      const disposers: (() => void)[] = []
      return {
        run() {
          for (const app of apps) {
            for (const definition of definitions) disposers.push(app.tools.register(definition))
            // What a session does next: list the tools (the overlay judges each at its first read).
            if (listed) (app.tools as unknown as { schemas(): unknown[] }).schemas()
          }
        },
        async dispose() {
          for (const dispose of disposers) dispose()
          // Unload the runtimes too: a sample leaves nothing running behind it.
          await Promise.all(apps.map((app) => app.fiber.dispose()))
        },
      }
    },
  }
}

/** The configured-route variant: the deepseek wire schemas, sent where DSH assembles each request. */
const DEEPSEEK: OverlayConfig = { route: 'deepseek' }

/**
 * Fails before any timing if the hardened runtime does not reject a bare property table: we would time nothing. The
 * probe runtime uses `mode: 'throw'` (the default, `refuse`, skips the tool without throwing), so a refusal is seen.
 */
async function assertOverlayGuards(overlay: OverlayConfig): Promise<void> {
  const app = await createToolRuntime({ hardened: true, overlay: { ...overlay, mode: 'throw' } })
  const bare = { ...generateTools(1)[0]!, name: 'bench_probe', parameters: { path: { type: 'string' } } }
  try {
    app.tools.register(bare)()
  } catch (error) {
    if (error instanceof JsonSchemaError) return
    throw error
  }
  throw new Error(
    `register.bench: the overlay (${JSON.stringify(overlay)}) accepted a bare property table, so it is not installed; fix createToolRuntime()`,
  )
}

/** Fails before any timing if the route variant does not project its tools where DSH assembles a request. */
async function assertRouteBinds(): Promise<void> {
  const app = await createToolRuntime({ hardened: true, overlay: DEEPSEEK })
  const probe = {
    ...generateTools(1)[0]!,
    name: 'bench_probe',
    parameters: { type: 'object', properties: { payload: { description: 'any JSON' } } },
  }
  const dispose = app.tools.register(probe)
  const assembler = app as unknown as {
    systemPrompt: { assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }> }
  }
  const sent = (await assembler.systemPrompt.assemble({})).tools.find((tool) => tool.name === 'bench_probe')
  const payload = (sent?.parameters as { properties?: Record<string, { type?: unknown }> } | undefined)
    ?.properties?.payload
  dispose()
  if (payload?.type !== 'string') {
    throw new Error(
      'register.bench: with route deepseek an any-JSON slot was not projected to JSON text; the route is not applied',
    )
  }
}

function compareRegister(
  name: string,
  overlay: OverlayConfig,
  definitions: readonly ToolDefinition[],
  runtimes: number,
  rounds: number,
  notes: readonly string[],
  listed = false,
): Comparison {
  const subject = overlay.route === undefined ? 'overlay register()' : `overlay+${overlay.route} register()`
  return {
    name,
    opsPerSample: definitions.length * runtimes,
    peer: registerInto('stock register()', undefined, definitions, runtimes, listed),
    subject: registerInto(subject, overlay, definitions, runtimes, listed),
    warmup: Math.max(5, Math.round(rounds / 10)),
    rounds,
    notes,
  }
}

export const GENERATED_TOOL_COUNT = 1000
export const LARGE_TOOL_COUNT = 4000

/**
 * What `HardenOverlay` adds to DSH's `ToolRuntime.register()`, per registered tool: root contract only (the default
 * configuration), then with `route: 'deepseek'`. A tool is judged when first read or asked about, so a sample that
 * registers and disposes without reading times the registration alone; the first read's cost is the `assembly` bench.
 */
export async function registerComparisons(): Promise<Comparison[]> {
  await assertOverlayGuards({})
  await assertOverlayGuards(DEEPSEEK)
  await assertRouteBinds()
  const firstParty = await collectFirstPartyTools()
  const firstPartyNotes = [
    ...firstParty.loaded.map((line) => `loaded ${line}`),
    ...firstParty.missing.map((line) => `not loaded ${line}`),
    'shell/fs/shellEnv/sandboxPolicy are registration-only stand-ins with sandboxMode "read-only", so the escalation fields are advertised',
    'read_image is not included: tool-fs registers it only when an `attachments` service is mounted',
  ]
  const generated = generateTools(GENERATED_TOOL_COUNT)
  const generatedNotes = [
    'seeded third-party-style schemas: 2–7 properties with enums, bounds, formats, nested objects, arrays of objects, anyOf',
  ]
  const configurations = [{}, DEEPSEEK]
  const cases = configurations.flatMap((overlay) => [
    // A dozen tools register in tens of microseconds, so each sample fills 8 fresh runtimes to rise above timer noise.
    compareRegister(
      `first-party tools (${firstParty.definitions.length})`,
      overlay,
      firstParty.definitions,
      8,
      200,
      firstPartyNotes,
    ),
    compareRegister(`generated tools (${GENERATED_TOOL_COUNT})`, overlay, generated, 1, 40, generatedNotes),
    // The same, then one listing: where the judgement the registration left for later is paid.
    compareRegister(
      `generated tools (${GENERATED_TOOL_COUNT}), then listed once`,
      overlay,
      generated,
      1,
      40,
      [
        ...generatedNotes,
        'each sample ends with one `schemas()` call on each runtime, inside the timed section',
      ],
      true,
    ),
  ])
  // The same kind of tools at the size of several connected MCP servers: register() must stay linear in K. Last,
  // because every schema compiled at register stays in the process-wide validator cache, and a larger heap makes the
  // forced GC before each sample of the cases after it slower.
  const large = generateTools(LARGE_TOOL_COUNT)
  return [
    ...cases,
    ...configurations.map((overlay) =>
      compareRegister(`generated tools (${LARGE_TOOL_COUNT})`, overlay, large, 1, 10, generatedNotes),
    ),
  ]
}
