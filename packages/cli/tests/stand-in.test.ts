import { describe, expect, it } from 'vitest'
import { createStandIn } from '../src/lint/stand-in.ts'

describe('createStandIn', () => {
  const fs = createStandIn('fs') as Record<string, (...args: unknown[]) => unknown> & (() => unknown)

  it('resolves when awaited instead of hanging, and yields itself', async () => {
    expect(await fs.readFile?.('x')).toBe(fs)
  })

  it('lets property chains, calls and new run without effect', () => {
    const watcher = fs.watch?.('.') as Record<string, (...args: unknown[]) => unknown>
    expect(() => watcher.on?.('change', () => {})).not.toThrow()
    const Ctor = fs.Client as unknown as new () => unknown
    expect(new Ctor()).toBe(fs)
    fs.cache = 'ignored' as never
    expect(fs.cache).toBe(fs)
  })

  it('converts to a labelled string, zero, an empty iteration and JSON null', () => {
    expect(String(fs)).toBe('[dsh-harden stand-in for service "fs"]')
    expect(`${fs}`).toContain('"fs"')
    expect(Number(fs)).toBe(0)
    expect([...(fs as unknown as Iterable<unknown>)]).toEqual([])
    expect(JSON.stringify({ fs })).toBe('{"fs":null}')
  })
})
