import { describe, expect, it } from 'vitest'
import {
  type DenialBinding,
  DenialTokenStore,
  ESCALATION_TOKEN,
  type EscalationFamily,
  type SandboxMode,
  withEscalationNormalization,
} from '../src/index.ts'

/**
 * The wrapper with a stand-in family and tool body: the body records the arguments DSH would get and "denies" any
 * command containing `deny`. The real DSH tools run in the tool packages' tests and in regress.
 */
interface Call {
  readonly args: Record<string, unknown>
  readonly exec: { callId: string; agent: { session: { id: string } } }
}

function harness(options: { mode?: SandboxMode; tokens?: DenialTokenStore } = {}) {
  const mode = options.mode ?? 'read-only'
  const seen: Record<string, unknown>[] = []
  const family: EscalationFamily = {
    tool: 'bash',
    subject: 'command',
    effectiveMode: () => mode,
    binding: (args, exec) => ({
      session: (exec as Call['exec']).agent.session.id,
      tool: 'bash',
      target: String(args.command).trim(),
      workdir: String(args.workdir ?? '/ws'),
      mode,
      effect: String(args.timeoutMs ?? ''),
    }),
    deniedValue: (value) => (value as { denied?: boolean }).denied === true,
  }
  const definition = {
    name: 'bash',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        sandbox_permissions: { type: 'string', enum: ['workspace-write', 'danger-full-access'] },
        justification: { type: 'string' },
      },
      required: ['command'],
    },
    async execute(args: Record<string, unknown>) {
      seen.push(args)
      return { denied: String(args.command).includes('deny') && args.sandbox_permissions === undefined }
    },
  }
  const wrapped = withEscalationNormalization(definition, { family, tokens: options.tokens })
  let n = 0
  const exec = (session = 's1') => ({ callId: `c${n++}`, agent: { session: { id: session } } })
  const run = async (args: Record<string, unknown>, e = exec()) => {
    const value = await (wrapped.execute as (a: unknown, e: unknown) => Promise<unknown>)(args, e)
    const content = (
      wrapped as unknown as { finalizeContent(e: unknown, r: unknown): { text: string }[] | undefined }
    ).finalizeContent(e, { content: [{ type: 'text', text: 'out' }] })
    return { value, text: content?.map((b) => b.text).join('\n') ?? 'out' }
  }
  return { wrapped, seen, run, exec }
}

const tokenIn = (text: string) => /escalation_token (esc_[A-Za-z0-9_-]+)/.exec(text)?.[1]
const WIDER = { sandbox_permissions: 'workspace-write', justification: 'need to write f.txt' }

describe('withEscalationNormalization', () => {
  it('advertises both fields as nullable and leaves them optional', () => {
    const { wrapped } = harness()
    expect(wrapped.parameters).toMatchObject({
      properties: {
        sandbox_permissions: {
          type: ['string', 'null'],
          enum: ['workspace-write', 'danger-full-access', null],
        },
        justification: { type: ['string', 'null'] },
      },
      required: ['command'],
    })
  })

  it('hands DSH the very same arguments object for a call with nothing to remove', async () => {
    const { run, seen } = harness()
    const args = { command: 'ls', ...WIDER }
    await run(args)
    expect(seen[0]).toBe(args)
  })

  it('drops a same-mode request, runs the call without it and says so in the result', async () => {
    const { run, seen } = harness({ mode: 'workspace-write' })
    const { text } = await run({ command: 'ls', sandbox_permissions: 'workspace-write', justification: '' })
    expect(seen[0]).toEqual({ command: 'ls' })
    expect(text).toContain('sandbox_permissions "workspace-write" was dropped as a no-op')
  })

  it('throws the guidance error for a wider request with an empty justification, before DSH runs', async () => {
    const { run, seen } = harness({ mode: 'workspace-write' })
    await expect(
      run({ command: 'ls', sandbox_permissions: 'danger-full-access', justification: '' }),
    ).rejects.toThrow(/omit sandbox_permissions and justification \(or send null for both\)/)
    expect(seen).toEqual([])
  })
})

describe('denial-bound escalation', () => {
  function denied() {
    const time = { now: 0 }
    const tokens = new DenialTokenStore({ ttlMs: 1_000, now: () => time.now })
    const h = harness({ tokens })
    return { ...h, tokens, time }
  }

  it('ignores a wider request that no denial preceded: the call runs in its current mode', async () => {
    const { run, seen } = denied()
    const { text } = await run({ command: 'touch f', ...WIDER })
    expect(seen[0]).toEqual({ command: 'touch f' })
    expect(text).toContain('was ignored: a wider mode is only honoured as the retry')
  })

  it('a real denial returns a token; the exact retry carrying it reaches DSH with its escalation intact', async () => {
    const { run, seen } = denied()
    const first = await run({ command: 'deny me' })
    const token = tokenIn(first.text)
    expect(token).toBeDefined()
    await run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token })
    expect(seen[1]).toEqual({ command: 'deny me', ...WIDER })
  })

  const refusals: [string, (token: string, h: ReturnType<typeof denied>) => Promise<void>][] = [
    [
      'token reuse',
      async (token, h) => {
        await h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token })
        await h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token })
      },
    ],
    [
      'expiry',
      async (token, h) => {
        h.time.now += 1_000
        await h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token })
      },
    ],
    [
      'a different command',
      (token, h) => h.run({ command: 'deny you', ...WIDER, [ESCALATION_TOKEN]: token }).then(),
    ],
    [
      'a different workdir',
      (token, h) =>
        h.run({ command: 'deny me', workdir: '/etc', ...WIDER, [ESCALATION_TOKEN]: token }).then(),
    ],
    [
      'a different session',
      (token, h) => h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token }, h.exec('s2')).then(),
    ],
    [
      'a parallel call',
      async (token, h) => {
        await Promise.all([
          h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token }),
          h.run({ command: 'deny me', ...WIDER, [ESCALATION_TOKEN]: token }),
        ])
      },
    ],
  ]
  for (const [label, attempt] of refusals) {
    it(`refuses ${label}: the escalation fields are ignored`, async () => {
      const h = denied()
      const token = tokenIn((await h.run({ command: 'deny me' })).text) as string
      await attempt(token, h)
      const escalated = h.seen.filter((args) => args.sandbox_permissions !== undefined)
      // Reuse and the parallel pair: exactly one call escalates; every other refusal: none.
      expect(escalated).toHaveLength(label === 'token reuse' || label === 'a parallel call' ? 1 : 0)
      for (const args of h.seen) expect(args).not.toHaveProperty(ESCALATION_TOKEN)
    })
  }

  it('a malformed retry (blank justification) is refused without using up its token', async () => {
    const h = denied()
    const token = tokenIn((await h.run({ command: 'deny me' })).text) as string
    const retry = { command: 'deny me', sandbox_permissions: 'workspace-write', [ESCALATION_TOKEN]: token }
    await expect(h.run({ ...retry, justification: '' })).rejects.toThrow(
      /non-empty one-sentence justification/,
    )
    await h.run({ ...retry, justification: 'need it' })
    expect(h.seen.at(-1)).toMatchObject({ sandbox_permissions: 'workspace-write' })
  })

  it('binds each token to what it was issued for', () => {
    const binding: DenialBinding = {
      session: 's',
      tool: 'bash',
      target: 'x',
      workdir: '/',
      mode: 'read-only',
      effect: 'e',
    }
    const store = new DenialTokenStore()
    const { token } = store.issue(binding)
    expect(store.check(token, { ...binding, mode: 'workspace-write' })).toMatchObject({ reason: 'mismatch' })
  })
})
