import type { Context } from '@deepseek-ai/cordis'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import { JsonSchemaError } from '@dsh-harden/tools'
import { collectFirstPartyTools } from './first-party-tools.ts'
import { generateTools } from './generated-tools.ts'
import type { Comparison, Side } from './harness.ts'
import { createToolRuntime } from './runtime.ts'

/**
 * One sample: fresh runtimes (untimed), then every definition registered into each of them through the cordis
 * proxy, as a plugin would (timed), then every registration disposed (untimed).
 */
function registerInto(
  label: string,
  hardened: boolean,
  definitions: readonly ToolDefinition[],
  runtimes: number,
): Side {
  return {
    label,
    async prepare() {
      const apps: Context[] = []
      for (let index = 0; index < runtimes; index++) apps.push(await createToolRuntime({ hardened }))
      const disposers: (() => void)[] = []
      return {
        run() {
          for (const app of apps)
            for (const definition of definitions) disposers.push(app.tools.register(definition))
        },
        dispose() {
          for (const dispose of disposers) dispose()
        },
      }
    },
  }
}

/** Fails before any timing if the hardened runtime does not reject a bare property table: we would time nothing. */
async function assertOverlayGuards(): Promise<void> {
  const app = await createToolRuntime({ hardened: true })
  const bare = { ...generateTools(1)[0]!, name: 'bench_probe', parameters: { path: { type: 'string' } } }
  try {
    app.tools.register(bare)()
  } catch (error) {
    if (error instanceof JsonSchemaError) return
    throw error
  }
  throw new Error(
    'register.bench: the overlay accepted a bare property table, so it is not installed; fix createToolRuntime()',
  )
}

function compareRegister(
  name: string,
  definitions: readonly ToolDefinition[],
  runtimes: number,
  rounds: number,
  notes: readonly string[],
): Comparison {
  return {
    name,
    opsPerSample: definitions.length * runtimes,
    peer: registerInto('stock register()', false, definitions, runtimes),
    subject: registerInto('overlay register()', true, definitions, runtimes),
    warmup: Math.max(5, Math.round(rounds / 10)),
    rounds,
    notes,
  }
}

export const GENERATED_TOOL_COUNT = 1000

/** What `HardenOverlay` adds to DSH's `ToolRuntime.register()`, per registered tool. */
export async function registerComparisons(): Promise<Comparison[]> {
  await assertOverlayGuards()
  const firstParty = await collectFirstPartyTools()
  const firstPartyNotes = [
    ...firstParty.loaded.map((line) => `loaded ${line}`),
    ...firstParty.missing.map((line) => `not loaded ${line}`),
    'shell/fs/shellEnv/sandboxPolicy are registration-only stand-ins with sandboxMode "read-only", so the escalation fields are advertised',
    'read_image is not included: tool-fs registers it only when an `attachments` service is mounted',
  ]
  return [
    // A dozen tools register in tens of microseconds, so each sample fills 8 fresh runtimes to rise above timer noise.
    compareRegister(
      `first-party tools (${firstParty.definitions.length})`,
      firstParty.definitions,
      8,
      200,
      firstPartyNotes,
    ),
    compareRegister(`generated tools (${GENERATED_TOOL_COUNT})`, generateTools(GENERATED_TOOL_COUNT), 1, 40, [
      'seeded third-party-style schemas: 2–7 properties with enums, bounds, formats, nested objects, arrays of objects, anyOf',
    ]),
  ]
}
