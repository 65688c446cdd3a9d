import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bearerToken,
  checkListenAddress,
  cookieValue,
  hostAllowList,
  isLoopbackHost,
  NonLoopbackListenError,
  refuseByHeaders,
  tokenMatches,
} from '../src/index.ts'

const PORT = 4100
const list = hostAllowList('127.0.0.1', PORT, ['dev.internal'])
const allowedName = fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'dev.internal', 'LOCALHOST')
const otherName = fc.constantFrom(
  'attacker.example',
  '127.0.0.1.nip.io',
  'localhost.attacker.example',
  '10.0.0.7',
)

describe('refuseByHeaders: the DNS-rebinding defence of every local listener', () => {
  it('serves exactly the allowed names on the real port, with or without an allowed http Origin', () => {
    fc.assert(
      fc.property(allowedName, fc.boolean(), (name, withOrigin) => {
        const authority = `${name}:${PORT}`
        const headers = { host: authority, ...(withOrigin ? { origin: `http://${authority}` } : {}) }
        expect(refuseByHeaders(headers, list)).toBeUndefined()
      }),
    )
  })

  it('refuses another name, another port, an https or foreign Origin, and a missing Host, saying which', () => {
    fc.assert(
      fc.property(otherName, allowedName, fc.integer({ min: 1, max: 65_535 }), (other, name, port) => {
        expect(refuseByHeaders({ host: `${other}:${PORT}` }, list)).toMatch(
          /^Host .*\(DNS rebinding protection\)/,
        )
        if (port !== PORT) expect(refuseByHeaders({ host: `${name}:${port}` }, list)).toMatch(/^Host /)
        const host = `${name}:${PORT}`
        expect(refuseByHeaders({ host, origin: `http://${other}:${PORT}` }, list)).toMatch(
          /^Origin .* may not/,
        )
        expect(refuseByHeaders({ host, origin: `https://${host}` }, list)).toMatch(/^Origin .* may not/)
      }),
    )
    expect(refuseByHeaders({}, list)).toMatch(/^Host ""/)
    expect(refuseByHeaders({ host: `localhost:${PORT}`, origin: 'not a url' }, list)).toMatch(/is not a URL/)
  })
})

describe('listen addresses and tokens', () => {
  it('a non-loopback bind needs the opt-in and then warns; loopback names are loopback', () => {
    expect(() => checkListenAddress('0.0.0.0', false, 'status panel', '--allow-non-loopback')).toThrow(
      NonLoopbackListenError,
    )
    expect(checkListenAddress('0.0.0.0', true, 'status panel', '--allow-non-loopback')).toMatch(/reachable/)
    expect(checkListenAddress('127.0.0.1', false, 'status panel', '--allow-non-loopback')).toBeUndefined()
    for (const host of ['localhost', 'a.localhost', '127.9.9.9', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true)
    for (const host of ['0.0.0.0', '10.0.0.1', 'example.com', '::']) expect(isLoopbackHost(host)).toBe(false)
  })

  it('tokens compare whole, and are read from Authorization and Cookie exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true)
    expect(tokenMatches('abd', 'abc')).toBe(false)
    expect(tokenMatches('ab', 'abc')).toBe(false)
    expect(tokenMatches(undefined, 'abc')).toBe(false)
    expect(bearerToken({ authorization: 'Bearer t0k' })).toBe('t0k')
    expect(bearerToken({ authorization: 'Basic t0k' })).toBeUndefined()
    expect(cookieValue({ cookie: 'a=1; token=xyz; b=2' }, 'token')).toBe('xyz')
    expect(cookieValue({ cookie: 'xtoken=1' }, 'token')).toBeUndefined()
  })
})
