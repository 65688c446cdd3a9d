import { collectGarbage } from './gc.ts'
import type { ComparisonResult } from './harness.ts'
import { spread } from './stats.ts'

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

async function sample(side: AsyncSide): Promise<{ ns: number; samples: readonly number[] }> {
  const trial = await side.prepare()
  try {
    collectGarbage()
    const start = process.hrtime.bigint()
    const samples = await trial.run()
    const ns = Number(process.hrtime.bigint() - start)
    return { ns, samples: samples ?? [] }
  } finally {
    await trial.dispose()
  }
}

export async function compareAsync(comparison: AsyncComparison): Promise<AsyncComparisonResult> {
  const { peer, subject, opsPerSample, warmup, rounds } = comparison
  if (opsPerSample <= 0 || rounds <= 0)
    throw new RangeError(`${comparison.name}: opsPerSample and rounds must be positive`)
  const peerNs: number[] = []
  const subjectNs: number[] = []
  const ratios: number[] = []
  const added: number[] = []
  const peerSamples: number[] = []
  const subjectSamples: number[] = []
  for (let round = 0; round < warmup + rounds; round++) {
    const peerFirst = round % 2 === 0
    const first = await sample(peerFirst ? peer : subject)
    const second = await sample(peerFirst ? subject : peer)
    if (round < warmup) continue
    const p = peerFirst ? first : second
    const s = peerFirst ? second : first
    peerNs.push(p.ns / opsPerSample)
    subjectNs.push(s.ns / opsPerSample)
    ratios.push(s.ns / p.ns)
    added.push((s.ns - p.ns) / opsPerSample)
    peerSamples.push(...p.samples)
    subjectSamples.push(...s.samples)
  }
  return {
    name: comparison.name,
    peer: { label: peer.label, nsPerOp: spread(peerNs).median },
    subject: { label: subject.label, nsPerOp: spread(subjectNs).median },
    ratio: spread(ratios),
    addedNsPerOp: spread(added),
    rounds,
    opsPerSample,
    notes: comparison.notes ?? [],
    peerSamples,
    subjectSamples,
  }
}
