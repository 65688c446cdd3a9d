import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { captureStderr, thirdPartySession } from './fixtures.ts'

// A dependency's prototype-pollution bug: every object now seems to declare these keywords.
const POLLUTED = { type: 'object', anyOf: [{}], enum: ['x'] } as const

function unpollute(): void {
  for (const key of Object.keys(POLLUTED)) delete (Object.prototype as Record<string, unknown>)[key]
}

afterEach(unpollute)

/** The lines of captured stderr that speak of the pollution. */
function pollutionNotices(stderr: { text(): string }): string[] {
  return stderr
    .text()
    .split('\n')
    .filter((line) => line.includes('Object.prototype'))
}

function pollute(): void {
  Object.assign(Object.prototype, POLLUTED)
}

interface Runtime {
  systemPrompt: { assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }> }
  tools: { execute(input: object): Promise<unknown> }
}

const DEEPSEEK = { options: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } }

async function session(hardened: boolean, config?: object) {
  return thirdPartySession(hardened ? config : 'stock')
}

/** The request's tools exactly as the agent loop serializes them. */
async function wire(app: Context): Promise<string> {
  const assembly = await (app as unknown as Runtime).systemPrompt.assemble({
    agent: DEEPSEEK,
    scope: DEEPSEEK,
  })
  return JSON.stringify(assembly.tools.map((entry) => [entry.name, entry.parameters]))
}

async function call(app: Context, args: object): Promise<void> {
  await (app as unknown as Runtime).tools.execute({
    signal: new AbortController().signal,
    callId: 'c1',
    name: 'any_json',
    arguments: args,
    agent: DEEPSEEK,
  })
}

describe('the overlay while Object.prototype carries enumerable keys', () => {
  it('sends the tools stock DSH sends, hands arguments on as sent, and says why once', async () => {
    const stock = await session(false)
    const hardened = await session(true)
    const stderr = captureStderr()
    try {
      pollute()
      expect(await wire(hardened.app)).toBe(await wire(stock.app))
      expect(await wire(hardened.app)).toBe(await wire(stock.app))
      const args = { input: '{"a":[1,2]}' }
      await call(hardened.app, args)
      await call(stock.app, args)
      expect(hardened.received).toEqual(stock.received)
    } finally {
      stderr.restore()
    }
    const told = pollutionNotices(stderr)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(/^dsh-harden: Object\.prototype carries "type", "anyOf", "enum"/)
  })

  it('projects for the route again once the keys are gone', async () => {
    const hardened = await session(true)
    const stock = await session(false)
    const stderr = captureStderr()
    try {
      pollute()
      expect(await wire(hardened.app)).toBe(await wire(stock.app))
    } finally {
      stderr.restore()
    }
    unpollute()
    const projected = await wire(hardened.app)
    expect(projected).not.toBe(await wire(stock.app))
    expect(projected).toBe(await wire((await session(true)).app))
  })

  it('keeps a projection made before the keys appeared, and still reads its arguments back', async () => {
    const hardened = await session(true)
    const clean = await wire(hardened.app)
    pollute()
    expect(await wire(hardened.app)).toBe(clean)
    await call(hardened.app, { input: '{"a":[1,2]}' })
    expect(hardened.received).toEqual([{ input: { a: [1, 2] } }])
  })

  it('sends the declared schema with a configured profile too, and says why once', async () => {
    const stock = await session(false)
    const hardened = await session(true, { route: 'deepseek' })
    const stderr = captureStderr()
    try {
      pollute()
      expect(await wire(hardened.app)).toBe(await wire(stock.app))
      expect(await wire(hardened.app)).toBe(await wire(stock.app))
    } finally {
      stderr.restore()
    }
    expect(pollutionNotices(stderr)).toHaveLength(1)
  })
})
