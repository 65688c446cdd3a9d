import { expect } from 'vitest'
import { createToolContract, type JsonObject, type ProfileId, ToolArgsError } from '../src/index.ts'
import type { WorkKind, WorkMeter } from '../src/json/work-meter.ts'

/**
 * A `WorkMeter` that tallies every count, per kind and in total; reset between the sizes it compares. Past `limit` it
 * throws, so a super-linear path fails the test at once instead of hanging it.
 */
export interface Tally extends WorkMeter {
  total(): number
  of(kind: WorkKind): number
  reset(): void
}

export function tally(limit = 5_000_000): Tally {
  let counts = new Map<WorkKind, number>()
  let total = 0
  return {
    count: (kind, amount = 1) => {
      counts.set(kind, (counts.get(kind) ?? 0) + amount)
      total += amount
      if (total > limit)
        throw new Error(`work budget exceeded: more than ${limit} units counted (last: ${kind})`)
    },
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    of: (kind) => counts.get(kind) ?? 0,
    reset: () => {
      counts = new Map()
      total = 0
    },
  }
}

/**
 * Linear growth by counting work, never time: the work at sizes n, 2n and 4n, each doubling at most `bound` times
 * the work before it (2 is linear; an exponential or quadratic path gives 4 and more).
 */
export function expectLinearWork(name: string, work: (n: number) => number, n: number, bound = 2.5): void {
  const [a, b, c] = [work(n), work(2 * n), work(4 * n)]
  expect(a, `${name}: some work is counted at n=${n}`).toBeGreaterThan(0)
  expect(b / a, `${name}: work(${2 * n}) / work(${n}) = ${b} / ${a}`).toBeLessThanOrEqual(bound)
  expect(c / b, `${name}: work(${4 * n}) / work(${2 * n}) = ${c} / ${b}`).toBeLessThanOrEqual(bound)
}

/**
 * Everything a call costs on one route, counted: register (the root-contract check), projection, reading back
 * (normalize) and parse (one validation; a refusal must be a `ToolArgsError`).
 */
export function callWork(schema: JsonObject, args: unknown, profile: ProfileId): number {
  const meter = tally()
  const contract = createToolContract(schema, { tool: 'hostile', source: 'fast-check' }, { meter })
  contract.projection(profile)
  contract.normalizeArguments(args, profile)
  try {
    contract.parseArguments(args, profile)
  } catch (error) {
    expect(error).toBeInstanceOf(ToolArgsError)
  }
  // Validator calls are a constant per call: one, and one more to word a refusal.
  expect(meter.of('validator-call')).toBeLessThanOrEqual(2)
  // The root-contract check at register is counted too.
  expect(meter.of('check-node')).toBeGreaterThan(0)
  return meter.total()
}
