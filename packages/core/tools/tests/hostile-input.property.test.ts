import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkToolParameters, enforceToolParameters, JsonSchemaError } from '../src/index.ts'
import { anyValue, objectOf, parsedJson, plausibleParameters } from './arbitraries.ts'

function thrower(): never {
  throw new Error('hostile trap')
}

function deepObject(depth: number): unknown {
  let node: unknown = { type: 'string' }
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { p: node } }
  return node
}

function deepArray(depth: number): unknown {
  let node: unknown = []
  for (let i = 0; i < depth; i++) node = [node]
  return node
}

/** 2^depth paths through `depth` distinct objects: a "billion laughs" that only a node budget stops. */
function laughs(depth: number): unknown {
  let node: unknown = { type: 'string' }
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { a: node, b: node } }
  return node
}

function cyclic(): unknown {
  const a: Record<string, unknown> = { type: 'object' }
  const b: Record<string, unknown> = { type: 'object', properties: { back: a } }
  a.properties = { b, again: b }
  return a
}

function revoked(): unknown {
  const { proxy, revoke } = Proxy.revocable({ type: 'object' }, {})
  revoke()
  return proxy
}

/** Values built to break a naive walker: throwing traps and getters, revoked proxies, huge and deep shapes. */
const HOSTILE: Record<string, () => unknown> = {
  'getter that throws': () => ({
    type: 'object',
    get properties() {
      return thrower()
    },
  }),
  'proxy getPrototypeOf throws': () => new Proxy({}, { getPrototypeOf: thrower }),
  'proxy ownKeys throws': () => new Proxy({}, { ownKeys: thrower }),
  'proxy getOwnPropertyDescriptor throws': () =>
    new Proxy({ type: 'object' }, { getOwnPropertyDescriptor: thrower }),
  'proxy get throws': () => new Proxy({ type: 'object' }, { get: thrower }),
  'proxy has throws': () => new Proxy({ type: 'object' }, { has: thrower }),
  'proxy of an array whose traps throw': () => new Proxy(['a'], { ownKeys: thrower, get: thrower }),
  'proxy that lists a key it does not have': () => new Proxy({}, { ownKeys: () => ['ghost'] }),
  'proxy that throws a non-error': () =>
    new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Proxy({}, { getPrototypeOf: thrower, get: thrower })
        },
      },
    ),
  'callable proxy': () => new Proxy(() => 0, { getPrototypeOf: thrower }),
  'revoked proxy': revoked,
  'prototype whose constructor getter throws': () =>
    Object.create(Object.create(null, { constructor: { get: thrower } })),
  'objects nested 10,000 deep': () => deepObject(10_000),
  'arrays nested 10,000 deep': () => deepArray(10_000),
  'a wide array': () => ({ type: 'object', enum: new Array(1_000_000).fill('x') }),
  'a sparse array of huge length': () => ({ type: 'object', enum: new Array(2 ** 32 - 1) }),
  'a wide object': () => objectOf(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, { type: 'string' }])),
  'a cyclic graph': cyclic,
  'a billion laughs DAG': () => laughs(64),
  'a frozen object': () => Object.freeze({ type: 'object', properties: Object.freeze({}) }),
}

/** Hostile values are built inside the property, as fast-check itself would trip over a revoked proxy. */
type Build = () => unknown
const hostile: fc.Arbitrary<Build> = fc.constantFrom(...Object.values(HOSTILE))
const plain = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<Build> => arbitrary.map((value) => () => value)

/** Hostile or random values, alone or planted inside an otherwise plausible schema. */
const input: fc.Arbitrary<Build> = fc.oneof(
  plain(anyValue),
  plain(parsedJson),
  hostile,
  plain(plausibleParameters),
  fc.tuple(plausibleParameters, fc.oneof(hostile, plain(anyValue))).map(
    ([root, planted]) =>
      () =>
        typeof root === 'object' && root !== null
          ? objectOf([...Object.entries(root), ['properties', objectOf([['p', planted()]])]])
          : root,
  ),
)

function checkNeverThrows(value: unknown): void {
  const result = checkToolParameters(value)
  expect(Array.isArray(result.violations)).toBe(true)
}

function enforceThrowsOnlyJsonSchemaError(value: unknown, mode: 'throw' | 'repair'): void {
  try {
    enforceToolParameters(value, { tool: 'hostile', source: 'fuzz' }, { mode })
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSchemaError)
    expect((error as JsonSchemaError).violations.length).toBeGreaterThan(0)
  }
}

describe('hostile input', () => {
  for (const [name, build] of Object.entries(HOSTILE)) {
    it(`${name}: checkToolParameters returns violations instead of throwing or hanging`, () => {
      const value = build()
      checkNeverThrows(value)
      if (name !== 'a frozen object') expect(checkToolParameters(value).violations.length).toBeGreaterThan(0)
      enforceThrowsOnlyJsonSchemaError(value, 'repair')
    })
  }

  it('checkToolParameters never throws, on arbitrary and hostile values', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(input, (build) => checkNeverThrows(build())),
      { numRuns: 1_000 },
    )
  })

  it('enforceToolParameters throws nothing but JsonSchemaError, in both modes', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(input, fc.constantFrom('throw' as const, 'repair' as const), (build, mode) =>
        enforceThrowsOnlyJsonSchemaError(build(), mode),
      ),
      { numRuns: 1_000 },
    )
  })
})
