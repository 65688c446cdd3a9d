/**
 * Records what this process writes to stderr while still writing it (to the run's log file): what a user of a
 * headless DSH session would see there, e.g. the overlay's notice that it withheld a tool.
 */
export interface StderrCapture {
  /** The text written so far. */
  text(): string
  stop(): void
}

export function captureStderr(): StderrCapture {
  const chunks: string[] = []
  const original = process.stderr.write
  const write: typeof process.stderr.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))
    return (original as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest)
  } as typeof process.stderr.write
  process.stderr.write = write
  return {
    text: () => chunks.join(''),
    stop: () => {
      if (process.stderr.write === write) process.stderr.write = original
    },
  }
}
