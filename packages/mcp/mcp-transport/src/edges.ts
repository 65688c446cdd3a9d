/** How much of a dropped line's or event's start and end is kept for diagnostics and for finding its `id`. */
export const OVERSIZE_EDGE_BYTES = 4096

/** The few operations {@link Edges} needs, for bytes (the stdio splitter) and for text (the SSE reader). */
export interface EdgeUnits<T> {
  readonly length: (piece: T) => number
  readonly slice: (piece: T, start: number, end?: number) => T
  readonly join: (pieces: readonly T[]) => T
  /** A copy that holds no reference to the chunk `piece` was cut from, so a kept edge never pins a large chunk. */
  readonly own: (piece: T) => T
}

export const BYTE_UNITS: EdgeUnits<Buffer> = {
  length: (piece) => piece.length,
  slice: (piece, start, end) => piece.subarray(start, end),
  join: (pieces) => Buffer.concat(pieces),
  own: (piece) => Buffer.from(piece),
}

export const TEXT_UNITS: EdgeUnits<string> = {
  length: (piece) => piece.length,
  slice: (piece, start, end) => piece.slice(start, end),
  join: (pieces) => pieces.join(''),
  own: (piece) => piece,
}

/**
 * The first and last {@link OVERSIZE_EDGE_BYTES} units of a stream that is being dropped, fed piece by piece. Each
 * unit is copied at most a bounded number of times whatever the pieces' sizes (the tail is compacted only once it
 * holds twice the edge), so keeping the edges of an endless line costs work linear in its length, never
 * "the whole edge again for every one-byte chunk".
 */
export class Edges<T> {
  readonly #units: EdgeUnits<T>
  #head: T[] = []
  #headSize = 0
  #tail: T[] = []
  #tailSize = 0

  constructor(units: EdgeUnits<T>) {
    this.#units = units
  }

  add(piece: T): void {
    const units = this.#units
    const length = units.length(piece)
    if (this.#headSize < OVERSIZE_EDGE_BYTES) {
      const part = units.own(units.slice(piece, 0, OVERSIZE_EDGE_BYTES - this.#headSize))
      this.#head.push(part)
      this.#headSize += units.length(part)
    }
    if (length >= OVERSIZE_EDGE_BYTES) {
      this.#tail = [units.own(units.slice(piece, length - OVERSIZE_EDGE_BYTES))]
      this.#tailSize = OVERSIZE_EDGE_BYTES
      return
    }
    this.#tail.push(units.own(piece))
    this.#tailSize += length
    if (this.#tailSize >= 2 * OVERSIZE_EDGE_BYTES) {
      const joined = units.join(this.#tail)
      this.#tail = [units.slice(joined, units.length(joined) - OVERSIZE_EDGE_BYTES)]
      this.#tailSize = OVERSIZE_EDGE_BYTES
    }
  }

  /** The first units fed (at most {@link OVERSIZE_EDGE_BYTES}). */
  head(): T {
    return this.#units.join(this.#head)
  }

  /** The last units fed (at most {@link OVERSIZE_EDGE_BYTES}). */
  tail(): T {
    const joined = this.#units.join(this.#tail)
    return this.#units.slice(joined, Math.max(0, this.#units.length(joined) - OVERSIZE_EDGE_BYTES))
  }
}
