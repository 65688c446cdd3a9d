import { collectGarbageSettled } from './gc.ts'
import { type Spread, spread } from './stats.ts'

/** Prepared, untimed state in which `run()` performs the measured work exactly once. */
export interface Trial {
  /** The timed section. Synchronous on purpose: awaiting would time the microtask queue too. */
  run(): void
  /** Untimed clean-up after `run()`. */
  dispose(): void | Promise<void>
}

/** One side of a comparison: builds a fresh trial for every sample, so each sample starts from the same state. */
export interface Side {
  readonly label: string
  prepare(): Trial | Promise<Trial>
}

/** A subject measured against a peer doing the same work in the same process. */
export interface Comparison {
  readonly name: string
  /** Operations one `run()` performs; times are reported per operation. */
  readonly opsPerSample: number
  readonly peer: Side
  readonly subject: Side
  /** Discarded rounds before measuring, so both sides are optimized before any sample counts. */
  readonly warmup: number
  readonly rounds: number
  /** Facts a reader needs to interpret the numbers (what was loaded, what could not be). */
  readonly notes?: readonly string[]
}

export interface SideResult {
  readonly label: string
  /** Median over rounds of the time per operation, in nanoseconds. */
  readonly nsPerOp: number
}

export interface ComparisonResult {
  readonly name: string
  readonly peer: SideResult
  readonly subject: SideResult
  /** subject ÷ peer, per round: above 1 the subject is slower. */
  readonly ratio: Spread
  /** (subject − peer) ÷ ops, per round, in nanoseconds: what the subject adds to one operation. */
  readonly addedNsPerOp: Spread
  readonly rounds: number
  readonly opsPerSample: number
  readonly notes: readonly string[]
}

/** One timed section: its duration and the per-op samples it returned, if any. */
export interface Timed {
  readonly ns: number
  readonly samples: readonly number[]
}

/** What `alternate` needs of a comparison: the sides are whatever its sampler can time. */
export interface Rounds<S extends { readonly label: string }> extends Omit<Comparison, 'peer' | 'subject'> {
  readonly peer: S
  readonly subject: S
}

async function sample(side: Side): Promise<Timed> {
  const trial = await side.prepare()
  await collectGarbageSettled()
  const start = process.hrtime.bigint()
  trial.run()
  const elapsed = process.hrtime.bigint() - start
  await trial.dispose()
  return { ns: Number(elapsed), samples: [] }
}

/**
 * Runs peer and subject in alternating rounds (peer first in even rounds, subject first in odd ones, so neither
 * always runs on a warmer or colder heap) and reduces each round to one ratio. Machine speed and load cancel out
 * of a ratio measured within one round; absolute times are reported only as information. `compare` and
 * `compareAsync` differ only in how one side is timed.
 */
export async function alternate<S extends { readonly label: string }>(
  comparison: Rounds<S>,
  time: (side: S) => Promise<Timed>,
): Promise<{ result: ComparisonResult; peerSamples: number[]; subjectSamples: number[] }> {
  const { peer, subject, opsPerSample, warmup, rounds } = comparison
  if (opsPerSample <= 0 || rounds <= 0) {
    throw new RangeError(
      `${comparison.name}: opsPerSample and rounds must be positive, got ${opsPerSample} and ${rounds}`,
    )
  }
  const peerNs: number[] = []
  const subjectNs: number[] = []
  const ratios: number[] = []
  const added: number[] = []
  const peerSamples: number[] = []
  const subjectSamples: number[] = []
  for (let round = 0; round < warmup + rounds; round++) {
    const peerFirst = round % 2 === 0
    const first = await time(peerFirst ? peer : subject)
    const second = await time(peerFirst ? subject : peer)
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
  const result: ComparisonResult = {
    name: comparison.name,
    peer: { label: peer.label, nsPerOp: spread(peerNs).median },
    subject: { label: subject.label, nsPerOp: spread(subjectNs).median },
    ratio: spread(ratios),
    addedNsPerOp: spread(added),
    rounds,
    opsPerSample,
    notes: comparison.notes ?? [],
  }
  return { result, peerSamples, subjectSamples }
}

/** `alternate` with a synchronous timed section. */
export async function compare(comparison: Comparison): Promise<ComparisonResult> {
  return (await alternate(comparison, sample)).result
}
