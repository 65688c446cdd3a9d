import { expect } from 'vitest'

/** Doubling-ratio checks for the "linear time" tests: ratios of medians, never an absolute time. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Median time of `run(n)`, each measured over enough repetitions to be well above the timer's resolution. */
function timeOf(run: (n: number) => void, n: number): number {
  const samples: number[] = []
  for (let i = 0; i < 7; i++) {
    const start = performance.now()
    run(n)
    samples.push(performance.now() - start)
  }
  return median(samples)
}

/**
 * Linear (or n log n) growth: doubling the input at most roughly doubles the time. Quadratic growth gives 4×; the
 * bound of 3× leaves room for noise, and the check retries once before it fails, as GC pauses can land anywhere.
 */
export function expectLinear(name: string, run: (n: number) => void, n: number): void {
  run(n) // warm up: JIT, ajv compilation, caches
  run(2 * n)
  let ratio = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3 && ratio >= 3; attempt++) {
    ratio = timeOf(run, 2 * n) / Math.max(timeOf(run, n), 0.05)
  }
  expect(ratio, `${name}: time(2n)/time(n)`).toBeLessThan(3)
}
