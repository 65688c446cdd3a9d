import type { GatewayClock } from '../clock.ts'

/**
 * A {@link GatewayClock} that moves only when told: `advance(ms)` runs, in order of their due time, exactly the
 * scheduled runs that fall due (including runs those schedule), so a test of idle release never waits and never
 * depends on how loaded the machine is.
 */
export class ManualClock implements GatewayClock {
  #now: number
  #next = 0
  readonly #pending = new Map<number, { readonly due: number; readonly fire: () => void }>()

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start
  }

  now(): number {
    return this.#now
  }

  schedule(fire: () => void, ms: number): () => void {
    const id = this.#next++
    this.#pending.set(id, { due: this.#now + Math.max(0, ms), fire })
    return () => this.#pending.delete(id)
  }

  /** Scheduled runs not yet due. */
  get pending(): number {
    return this.#pending.size
  }

  advance(ms: number): void {
    const until = this.#now + ms
    for (;;) {
      let first: [number, { due: number; fire: () => void }] | undefined
      for (const entry of this.#pending)
        if (entry[1].due <= until && (!first || entry[1].due < first[1].due)) first = entry
      if (first === undefined) break
      this.#pending.delete(first[0])
      this.#now = first[1].due
      first[1].fire()
    }
    this.#now = until
  }
}
