import { availableParallelism, loadavg } from 'node:os'
import { formatSizes, type MeasuredOutput, type SizeResult } from './gateway-report.ts'
import { canCollectGarbage } from './gc.ts'
import { type Comparison, type ComparisonResult, compare } from './harness.ts'
import { runInOwnProcess } from './own-process.ts'
import { formatTables } from './report.ts'

// Each module is imported only when selected, so `--only=<name>` loads that module's dependencies and no others.

/** Every benchmark module, by the name `--only=` selects it with. */
const BENCHES: Readonly<Record<string, () => Promise<Comparison[]>>> = {
  register: async () => (await import('./register.bench.ts')).registerComparisons(),
  validate: async () => (await import('./validate.bench.ts')).validateComparisons(),
  compile: async () => (await import('./compile.bench.ts')).compileComparisons(),
  normalize: async () => (await import('./normalize.bench.ts')).normalizeComparisons(),
  decode: async () => (await import('./decode.bench.ts')).decodeComparisons(),
  'stream-readers': async () => (await import('./stream-readers.bench.ts')).streamReaderComparisons(),
}

/** Benchmarks that time async work themselves (`async-compare.ts`) and may report sizes; `--only=` selects them too. */
const MEASURED: Readonly<Record<string, () => Promise<MeasuredOutput>>> = {
  'gateway-activation': async () => (await import('./gateway-activation.bench.ts')).gatewayActivation(),
  'gateway-context': async () => (await import('./gateway-context.bench.ts')).gatewayContext(),
  'gateway-calls': async () => (await import('./gateway-calls.bench.ts')).gatewayCalls(),
  'repair-proxy': async () => (await import('./repair-proxy.bench.ts')).repairProxy(),
  assembly: async () => (await import('./assembly.bench.ts')).assembly(),
  session: async () => (await import('./session.bench.ts')).session(),
  memory: async () => (await import('./memory.bench.ts')).memory(),
  'wire-bytes': async () => (await import('./wire-bytes.bench.ts')).wireBytes(),
}

const json = process.argv.includes('--json')
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
/** Run only when `--only=` names them: the session bench drives the real app for many minutes (README). */
const OPT_IN = new Set(['session'])
const selected =
  only ?? [...Object.keys(BENCHES), ...Object.keys(MEASURED)].filter((name) => !OPT_IN.has(name))
for (const name of selected) {
  if (!(name in BENCHES) && !(name in MEASURED))
    throw new Error(
      `unknown benchmark ${name}; choose from ${[...Object.keys(BENCHES), ...Object.keys(MEASURED)].join(', ')}`,
    )
}

const results: ComparisonResult[] = []
const sizes: SizeResult[] = []

/** Runs one module here, adding what it measured. */
async function runHere(name: string): Promise<void> {
  const measured = MEASURED[name]
  if (measured !== undefined) {
    if (!json) process.stderr.write(`running ${name}…\n`)
    const output = await measured()
    results.push(...output.results)
    sizes.push(...output.sizes)
    return
  }
  for (const comparison of await BENCHES[name]!()) {
    if (!json) process.stderr.write(`running ${name}: ${comparison.name} (${comparison.subject.label})…\n`)
    results.push(await compare(comparison))
  }
}

// Several modules each get a process of their own (see `own-process.ts`), unless `--in-process` asks for one.
const isolated = selected.length > 1 && !process.argv.includes('--in-process')
const passthrough = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--only=') && arg !== '--json' && arg !== '--in-process')
for (const name of selected) {
  if (!isolated) {
    await runHere(name)
    continue
  }
  if (!json) process.stderr.write(`running ${name} in a process of its own…\n`)
  for (const item of await runInOwnProcess(name, passthrough)) {
    if ('kind' in item) sizes.push(item)
    else results.push(item)
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
