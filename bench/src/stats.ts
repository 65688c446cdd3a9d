/** Median and interquartile range of a sample: the spread every ratio in this package is reported with. */
export interface Spread {
  readonly median: number
  readonly p25: number
  readonly p75: number
}

/** The `q`-quantile (0…1) of `values`, interpolating linearly between the two nearest ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('quantile() of an empty sample: take at least one sample')
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (sorted.length - 1) * q
  const lower = Math.floor(rank)
  const upper = Math.ceil(rank)
  const low = sorted[lower]!
  return low + (sorted[upper]! - low) * (rank - lower)
}

export function spread(values: readonly number[]): Spread {
  return { median: quantile(values, 0.5), p25: quantile(values, 0.25), p75: quantile(values, 0.75) }
}
