import { describe, expect, it } from 'vitest'
import { idKey, RequestTracker } from '../src/index.ts'

describe('RequestTracker', () => {
  it('remembers at most maxPending requests, forgetting the oldest first', () => {
    const tracker = new RequestTracker({ maxPending: 2 })
    for (const id of [1, 2, 3]) tracker.sent({ jsonrpc: '2.0', id, method: 'tools/list' })
    expect(tracker.size).toBe(2)
    expect(tracker.isPending(idKey(1)!)).toBe(false)
    expect(tracker.isToolsList(idKey(3)!)).toBe(true)
    tracker.answered({ jsonrpc: '2.0', id: 2, result: {} })
    expect(tracker.drain().map((r) => r.id)).toEqual([3])
  })
})
