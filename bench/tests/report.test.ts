import { describe, expect, it } from 'vitest'
import type { ComparisonResult } from '../src/harness.ts'
import { formatTables } from '../src/report.ts'

function result(name: string, peerNs: number, subjectNs: number): ComparisonResult {
  const ratio = subjectNs / peerNs
  return {
    name,
    peer: { label: 'stock', nsPerOp: peerNs },
    subject: { label: 'overlay', nsPerOp: subjectNs },
    ratio: { median: ratio, p25: ratio, p75: ratio },
    addedNsPerOp: { median: subjectNs - peerNs, p25: 0, p75: 0 },
    rounds: 3,
    opsPerSample: 1,
    notes: [],
  }
}

describe('formatTables', () => {
  it('prints a table of whole sessions in ms and a table of short operations in µs', () => {
    const long = formatTables([result('session', 1.5e9, 1.65e9), result('step', 1.2e8, 1.3e8)])
    expect(long).toContain('stock ms/op')
    expect(long).toMatch(/session\s+1500\s+1650\s+1\.10×/)
    const short = formatTables([result('register', 60_000, 90_000), result('session', 1.5e9, 1.65e9)])
    expect(short).toContain('stock µs/op')
    expect(short).toMatch(/register\s+60\.00\s+90\.00\s+1\.50×/)
  })
})
