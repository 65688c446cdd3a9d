import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'

/**
 * The browser half's one reader of the endpoint, driven as the page drives it (components subscribing and leaving,
 * the panel opening) on a fake clock, with a `fetch` whose answers the test releases. Whatever the interleaving, at
 * most one request is out at a time and the timer polls at most once per `POLL_MS`.
 */
const POLL_MS = 4000
const SLOT_MS = 500

type Step =
  | { readonly kind: 'subscribe' }
  | { readonly kind: 'unsubscribe' }
  | { readonly kind: 'refresh' }
  | { readonly kind: 'tick'; readonly ms: number }
  | { readonly kind: 'answer' }
  | { readonly kind: 'fire' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'subscribe' as const }),
  fc.constant({ kind: 'unsubscribe' as const }),
  fc.constant({ kind: 'refresh' as const }),
  fc.integer({ min: 1, max: 4 * POLL_MS }).map((ms) => ({ kind: 'tick' as const, ms })),
  fc.constant({ kind: 'answer' as const }),
  fc.constant({ kind: 'fire' as const }),
)

interface Harness {
  readonly out: number
  readonly most: number
  readonly starts: number[]
  answerOne(): void
}

/** A `fetch` that never answers by itself: `answerOne` settles the oldest request still out (HTTP 500). */
function stubFetch(now: () => number): Harness {
  const pending: ((response: Response) => void)[] = []
  const harness = {
    out: 0,
    most: 0,
    starts: [] as number[],
    answerOne() {
      pending.shift()?.(new Response('{}', { status: 500 }))
    },
  }
  vi.stubGlobal('fetch', (_url: string, init?: { signal?: AbortSignal }) => {
    harness.out++
    harness.most = Math.max(harness.most, harness.out)
    harness.starts.push(now())
    return new Promise<Response>((resolve, reject) => {
      const answer = (response: Response) => {
        harness.out--
        resolve(response)
      }
      pending.push(answer)
      init?.signal?.addEventListener('abort', () => {
        const index = pending.indexOf(answer)
        if (index === -1) return
        pending.splice(index, 1)
        harness.out--
        reject(new DOMException('aborted', 'AbortError'))
      })
    })
  })
  return harness
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.resetModules()
})

async function drain(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve()
}

describe('the client store', () => {
  it('never has two requests out, and its timer never polls faster than once per POLL_MS', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        vi.resetModules()
        vi.useFakeTimers()
        const harness = stubFetch(() => Date.now())
        const store = await import('../client/src/store.ts')
        const leaving: (() => void)[] = []
        for (const s of steps) {
          if (s.kind === 'subscribe') leaving.push(store.subscribe(() => {}))
          else if (s.kind === 'unsubscribe') leaving.shift()?.()
          else if (s.kind === 'refresh') store.refresh()
          else if (s.kind === 'answer') harness.answerOne()
          // The next timer fires (a poll, or a request's deadline), and nothing is answered yet.
          else if (s.kind === 'fire') await vi.advanceTimersToNextTimerAsync()
          else {
            // Time passes with each request answered within a slot: only the timer (and one read asked for before)
            // starts requests now. A request the last slot's timer started may still be out when the tick ends.
            const before = harness.starts.length
            for (let ms = 0; ms < s.ms; ms += SLOT_MS) {
              harness.answerOne()
              await drain()
              await vi.advanceTimersByTimeAsync(SLOT_MS)
            }
            const polls = harness.starts.length - before
            expect(polls).toBeLessThanOrEqual(Math.ceil(s.ms / POLL_MS) + 1)
          }
          await drain()
          expect(harness.out).toBeLessThanOrEqual(1)
          // One poll timer at most, plus the deadline of the one request out.
          expect(vi.getTimerCount()).toBeLessThanOrEqual(1 + harness.out)
        }
        for (const leave of leaving) leave()
        vi.useRealTimers()
      }),
      {
        numRuns: 150,
        examples: [
          [
            [
              { kind: 'subscribe' },
              { kind: 'answer' },
              { kind: 'fire' },
              { kind: 'unsubscribe' },
              { kind: 'subscribe' },
              { kind: 'answer' },
            ],
          ],
        ],
      },
    )
  })

  it('stops polling when the last listener leaves', async () => {
    vi.useFakeTimers()
    const harness = stubFetch(() => Date.now())
    const store = await import('../client/src/store.ts')
    const leave = store.subscribe(() => {})
    harness.answerOne()
    await drain()
    leave()
    const started = harness.starts.length
    await vi.advanceTimersByTimeAsync(10 * POLL_MS)
    expect(harness.starts.length).toBe(started)
  })
})
