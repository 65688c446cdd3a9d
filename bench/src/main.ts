import { availableParallelism, loadavg } from 'node:os'
import { compileComparisons } from './compile.bench.ts'
import { decodeComparisons } from './decode.bench.ts'
import { gatewayActivation } from './gateway-activation.bench.ts'
import { gatewayCalls } from './gateway-calls.bench.ts'
import { gatewayContext } from './gateway-context.bench.ts'
import { formatSizes, type MeasuredOutput, type SizeResult } from './gateway-report.ts'
import { canCollectGarbage } from './gc.ts'
import { type Comparison, type ComparisonResult, compare } from './harness.ts'
import { normalizeComparisons } from './normalize.bench.ts'
import { registerComparisons } from './register.bench.ts'
import { repairProxy } from './repair-proxy.bench.ts'
import { formatTables } from './report.ts'
import { streamReaderComparisons } from './stream-readers.bench.ts'
import { validateComparisons } from './validate.bench.ts'

/** Every benchmark module, by the name `--only=` selects it with. */
const BENCHES: Readonly<Record<string, () => Comparison[] | Promise<Comparison[]>>> = {
  register: registerComparisons,
  validate: validateComparisons,
  compile: compileComparisons,
  normalize: normalizeComparisons,
  decode: decodeComparisons,
  'stream-readers': streamReaderComparisons,
}

/** Benchmarks that time async work themselves (`async-compare.ts`) and may report sizes; `--only=` selects them too. */
const MEASURED: Readonly<Record<string, () => Promise<MeasuredOutput>>> = {
  'gateway-activation': gatewayActivation,
  'gateway-context': gatewayContext,
  'gateway-calls': gatewayCalls,
  'repair-proxy': repairProxy,
}

const json = process.argv.includes('--json')
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const selected = only ?? [...Object.keys(BENCHES), ...Object.keys(MEASURED)]
for (const name of selected) {
  if (!(name in BENCHES) && !(name in MEASURED))
    throw new Error(
      `unknown benchmark ${name}; choose from ${[...Object.keys(BENCHES), ...Object.keys(MEASURED)].join(', ')}`,
    )
}

const results: ComparisonResult[] = []
const sizes: SizeResult[] = []
for (const name of selected) {
  const measured = MEASURED[name]
  if (measured !== undefined) {
    if (!json) process.stderr.write(`running ${name}…\n`)
    const output = await measured()
    results.push(...output.results)
    sizes.push(...output.sizes)
    continue
  }
  for (const comparison of await BENCHES[name]!()) {
    if (!json) process.stderr.write(`running ${name}: ${comparison.name} (${comparison.subject.label})…\n`)
    results.push(await compare(comparison))
  }
}

if (json) {
  process.stdout.write(`${JSON.stringify([...results, ...sizes], null, 2)}\n`)
} else {
  const gc = canCollectGarbage ? 'forced GC before each sample' : 'GC not forced (noisier)'
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')
  process.stdout.write(
    `node ${process.version}, ${availableParallelism()} cores, load ${load}, ${new Date().toISOString().slice(0, 10)}, ${gc}\n\n`,
  )
  process.stdout.write(formatTables(results))
  process.stdout.write(formatSizes(sizes))
}
