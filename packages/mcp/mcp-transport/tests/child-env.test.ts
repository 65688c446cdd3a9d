import { describe, expect, it } from 'vitest'
import { CANARY_MARK, ORDINARY_ENV, SECRET_CANARIES } from '../fixtures/index.ts'
import { childEnvironment, DEFAULT_CHILD_ENV_NAMES } from '../src/index.ts'

const parent = { ...SECRET_CANARIES, ...ORDINARY_ENV, PATH: process.env.PATH ?? '/usr/bin' }

describe('child environment: an allow-list, not a deny-list', () => {
  it('no secret reaches a child by default; the default names do', () => {
    const env = childEnvironment(parent, { defaults: DEFAULT_CHILD_ENV_NAMES, caseInsensitive: false })
    expect(Object.keys(env).sort()).toEqual(Object.keys({ ...ORDINARY_ENV, PATH: '' }).sort())
    expect(JSON.stringify(env)).not.toContain(CANARY_MARK)
  })

  it('passEnv adds exactly the names given; the server’s own env is set last and wins', () => {
    const env = childEnvironment(parent, {
      passEnv: ['KUBECONFIG', 'NOT_SET'],
      env: { GITHUB_TOKEN: 'given-for-this-server', HOME: '/srv' },
      caseInsensitive: false,
    })
    expect(env.KUBECONFIG).toBe(SECRET_CANARIES.KUBECONFIG)
    expect(env.GITHUB_TOKEN).toBe('given-for-this-server')
    expect(env.HOME).toBe('/srv')
    expect('NOT_SET' in env).toBe(false)
    const inherited = Object.keys(env).filter((name) => env[name] === SECRET_CANARIES[name])
    expect(inherited).toEqual(['KUBECONFIG'])
  })

  it('skips shell-function exports, and compares names without case on Windows', () => {
    expect(childEnvironment({ PATH: '() { :; }; echo pwned' }, { caseInsensitive: false })).toEqual({})
    const windows = childEnvironment(
      { Path: 'C:\\bin', SystemRoot: 'C:\\Windows', GITHUB_TOKEN: CANARY_MARK },
      { defaults: ['PATH', 'SYSTEMROOT'], caseInsensitive: true },
    )
    expect(windows).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows' })
  })
})
