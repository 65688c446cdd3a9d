import { availableParallelism } from 'node:os'
import { canCollectGarbage } from './gc.ts'
import { type ComparisonResult, compare } from './harness.ts'
import { registerComparisons } from './register.bench.ts'
import { formatTables } from './report.ts'

const json = process.argv.includes('--json')

const results: ComparisonResult[] = []
for (const comparison of await registerComparisons()) {
  if (!json) process.stderr.write(`running ${comparison.name}…\n`)
  results.push(await compare(comparison))
}

if (json) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
} else {
  const gc = canCollectGarbage ? 'forced GC before each sample' : 'GC not forced (noisier)'
  process.stdout.write(
    `node ${process.version}, ${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}, ${gc}\n\n`,
  )
  process.stdout.write(formatTables(results))
}
