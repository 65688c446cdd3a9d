/**
 * `register()` of the generated tools in a loop, for a CPU profile of one side alone (the bench proper times both
 * sides per round; a profile wants one side's work and nothing else):
 *
 *   pnpm exec node --cpu-prof --cpu-prof-dir=<dir> src/register-profile.ts overlay [rounds]
 *
 * The side is `stock`, `overlay` (the default config) or `route` (`{ route: 'deepseek' }`).
 */
import type { Context } from '@deepseek-ai/cordis'
import type { OverlayConfig } from '@dsh-harden/overlay'
import { generateTools } from './generated-tools.ts'
import { GENERATED_TOOL_COUNT } from './register.bench.ts'
import { createToolRuntime } from './runtime.ts'

const SIDES: Readonly<Record<string, OverlayConfig | undefined>> = {
  stock: undefined,
  overlay: {},
  route: { route: 'deepseek' },
}

const [side = 'overlay', roundsText = '60'] = process.argv.slice(2)
if (!(side in SIDES))
  throw new Error(`register-profile: side "${side}" is not one of ${Object.keys(SIDES).join(', ')}`)
const overlay = SIDES[side]
const rounds = Number(roundsText)
const definitions = generateTools(GENERATED_TOOL_COUNT)

for (let round = 0; round < rounds; round++) {
  const app: Context = await createToolRuntime({ hardened: overlay !== undefined, overlay })
  const disposers = definitions.map((definition) => app.tools.register(definition))
  for (const dispose of disposers) dispose()
  await app.fiber.dispose()
}
process.stderr.write(`register-profile: ${side}, ${rounds} rounds of ${definitions.length} registrations\n`)
