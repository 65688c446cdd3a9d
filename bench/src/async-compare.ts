import { collectGarbageSettled } from './gc.ts'
import { alternate, type ComparisonResult, type Timed } from './harness.ts'

/**
 * The async sibling of `compare()` in harness.ts, for work that is I/O by nature (spawning a server, an MCP round
 * trip): the timed section awaits. Same discipline: fresh untimed state per sample, a full GC before each timed
 * section, peer and subject alternating which goes first, one ratio per round. Awaiting adds microtask and event
 * loop time to both sides alike; these benches measure milliseconds, where that is noise.
 */
export interface AsyncTrial {
  /** The timed section; returns extra per-op samples (e.g. one latency per call) if it has them. */
  run(): Promise<readonly number[] | undefined>
  dispose(): Promise<void>
}

export interface AsyncSide {
  readonly label: string
  prepare(): Promise<AsyncTrial>
}

export interface AsyncComparison {
  readonly name: string
  readonly opsPerSample: number
  readonly peer: AsyncSide
  readonly subject: AsyncSide
  readonly warmup: number
  readonly rounds: number
  readonly notes?: readonly string[]
}

export interface AsyncComparisonResult extends ComparisonResult {
  /** Every per-op sample (ns) each side's trials returned, after warm-up. */
  readonly peerSamples: readonly number[]
  readonly subjectSamples: readonly number[]
}

async function sample(side: AsyncSide): Promise<Timed> {
  const trial = await side.prepare()
  try {
    await collectGarbageSettled()
    const start = process.hrtime.bigint()
    const samples = await trial.run()
    const ns = Number(process.hrtime.bigint() - start)
    return { ns, samples: samples ?? [] }
  } finally {
    await trial.dispose()
  }
}

export async function compareAsync(comparison: AsyncComparison): Promise<AsyncComparisonResult> {
  const { result, peerSamples, subjectSamples } = await alternate(comparison, sample)
  return { ...result, peerSamples, subjectSamples }
}
