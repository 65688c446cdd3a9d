import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runInOwnProcess } from '../src/own-process.ts'

const STUB = fileURLToPath(new URL('./fixtures/module-stub.mjs', import.meta.url))

describe('a bench module in a process of its own', () => {
  it('runs in a fresh process per module, with the other arguments passed on, and returns its JSON', async () => {
    const first = (await runInOwnProcess('register', ['--sizes=2000'], STUB)) as unknown as { pid: number }[]
    const second = (await runInOwnProcess('assembly', [], STUB)) as unknown as { pid: number }[]
    expect(first[0]).toMatchObject({ name: 'register', extra: ['--sizes=2000'] })
    expect(first[1]).toEqual({ kind: 'size', name: 'register size' })
    expect(second[0]).toMatchObject({ name: 'assembly', extra: [] })
    expect(new Set([process.pid, first[0]!.pid, second[0]!.pid]).size).toBe(3)
  })

  it('fails naming the module when its process does not exit cleanly', async () => {
    await expect(runInOwnProcess('fails', [], STUB)).rejects.toThrow('bench module fails exited with code 3')
  })
})
