import { describe, expect, it } from 'vitest'
import { snapshotByWalk } from '../src/check/snapshot.ts'
import {
  checkToolParameters,
  DEFAULT_LIMITS,
  enforceToolParameters,
  JsonSchemaError,
  snapshotJson,
} from '../src/index.ts'

function found(parameters: unknown, limits = DEFAULT_LIMITS): [string, string][] {
  return checkToolParameters(parameters, limits).violations.map((v) => [v.pointer, v.rule])
}

/** An object root whose one property `p` holds `schema`, so the pointer of a bad value is predictable. */
function rootWith(schema: unknown): Record<string, unknown> {
  return { type: 'object', properties: { p: schema } }
}

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' }
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { p: node } }
  return node
}

describe('parameters must be lossless JSON', () => {
  it('rejects a function inside parameters, naming the tool instead of failing later with DataCloneError', () => {
    const parameters = rootWith({ type: 'string', default: () => 'x' })
    expect(found(parameters)).toEqual([['/properties/p/default', 'not-lossless-json']])
    expect(() => enforceToolParameters(parameters, { tool: 't' })).toThrow(JsonSchemaError)
  })

  it('rejects a Date, a Map, a Set, a RegExp and a class instance', () => {
    class Shape {
      type = 'string'
    }
    for (const value of [new Date(0), new Map(), new Set(), /x/, new Shape()]) {
      expect(found(rootWith(value))).toEqual([['/properties/p', 'not-lossless-json']])
    }
  })

  it('rejects boxed primitives and bigints', () => {
    for (const value of [new String('s'), new Number(1), 1n]) {
      expect(found(rootWith(value))).toEqual([['/properties/p', 'not-lossless-json']])
    }
  })

  it('leaves symbol-keyed and non-enumerable properties out of the copy, as JSON.stringify does', () => {
    // TypeBox 0.34 marks every node with `Symbol.for('TypeBox.Kind')`, TypeBox 1.x with a non-enumerable `~kind`.
    const kind = Symbol.for('TypeBox.Kind')
    const typebox034 = {
      type: 'object',
      properties: { path: { type: 'string', [kind]: 'String' } },
      [kind]: 'Object',
    }
    const typebox1 = Object.defineProperty(
      { type: 'object', properties: { path: { type: 'string' } } },
      '~kind',
      { value: 'Object', enumerable: false },
    )
    for (const parameters of [typebox034, typebox1]) {
      expect(found(parameters)).toEqual([])
      const snapshot = snapshotJson(parameters)
      expect(snapshot.ok && JSON.stringify(snapshot.value)).toBe(JSON.stringify(parameters))
      expect(snapshot.ok && Reflect.ownKeys(snapshot.value as object)).toEqual(['type', 'properties'])
    }
  })

  it('rejects a setter-only accessor, which reads as undefined, without invoking it', () => {
    let calls = 0
    const schema = Object.defineProperty({ type: 'string' }, 'description', {
      enumerable: true,
      set: () => {
        calls++
      },
    })
    const { violations } = checkToolParameters(rootWith(schema))
    expect(violations.map((v) => [v.pointer, v.message])).toEqual([
      ['/properties/p/description', 'is a setter without a getter, which reads as undefined'],
    ])
    expect(calls).toBe(0)
  })

  it('never invokes a hidden accessor', () => {
    let calls = 0
    const schema = Object.defineProperty({ type: 'string' }, 'description', {
      enumerable: false,
      get: () => {
        calls++
        return 'x'
      },
    })
    expect(found(rootWith(schema))).toEqual([])
    expect(calls).toBe(0)
  })

  it('reads a getter once, as JSON.stringify does, and keeps the value it returned', () => {
    let calls = 0
    const schema = {
      get type() {
        calls++
        return calls === 1 ? 'string' : 'number'
      },
    }
    const snapshot = snapshotJson(rootWith(schema))
    expect(snapshot.ok && snapshot.value).toEqual(rootWith({ type: 'string' }))
    expect(calls).toBe(1)
    // The copy holds data: reading it again runs nothing.
    expect(snapshot.ok && JSON.stringify(snapshot.value)).toContain('"string"')
    expect(calls).toBe(1)
  })

  it('reports a getter that throws at its own pointer', () => {
    const schema = {
      type: 'object',
      properties: {
        get path(): unknown {
          throw new Error('not ready')
        },
      },
    }
    const { violations } = checkToolParameters(schema)
    expect(violations.map((v) => [v.pointer, v.rule, v.message])).toEqual([
      ['/properties/path', 'unreadable', 'reading this value threw Error: not ready'],
    ])
  })

  it('leaves out a key a getter deleted before it was read, as JSON.stringify does, on both paths', () => {
    const build = (extra: Record<string, unknown> = {}) => {
      const node: Record<string, unknown> = { ...extra, type: 'string' }
      Object.defineProperty(node, 'description', {
        enumerable: true,
        configurable: true,
        get() {
          delete node.minLength
          return 'a path'
        },
      })
      node.minLength = 1
      return rootWith(node)
    }
    const sent = JSON.parse(JSON.stringify(build()))
    expect(sent.properties.p).toEqual({ type: 'string', description: 'a path' })
    const fast = snapshotJson(build())
    expect(fast.ok && fast.value).toEqual(sent)
    // A value the fast pass hands over (a -0 elsewhere in the node) sends the same input through the walk.
    expect(found(build({ maximum: -0 }))).toEqual([['/properties/p/maximum', 'not-lossless-json']])
    expect(snapshotByWalk(build(), DEFAULT_LIMITS)).toEqual(fast)
  })

  it('copies no key that a getter made Object.prototype list midway', () => {
    const schema = {
      type: 'object',
      properties: {
        get first() {
          ;(Object.prototype as Record<string, unknown>).enum = ['injected']
          return { type: 'string' }
        },
        second: { type: 'number' },
      },
    }
    try {
      const snapshot = snapshotJson(schema)
      expect(snapshot.ok && JSON.stringify(snapshot.value)).toBe(
        '{"type":"object","properties":{"first":{"type":"string"},"second":{"type":"number"}}}',
      )
    } finally {
      delete (Object.prototype as Record<string, unknown>).enum
    }
  })

  it('reads an element getter of an array', () => {
    const list = Object.defineProperty(['a', 'x'], 1, { enumerable: true, get: () => 'b' })
    const snapshot = snapshotJson(rootWith({ enum: list }))
    expect(snapshot.ok && snapshot.value).toEqual(rootWith({ enum: ['a', 'b'] }))
  })

  it('rejects named properties on arrays, which JSON drops although they were written as data', () => {
    const list = Object.assign(['a'], { extra: 1 })
    expect(found(rootWith({ enum: list }))).toEqual([['/properties/p/enum/extra', 'not-lossless-json']])
  })

  it('reads a non-enumerable array element, which JSON sends', () => {
    const list = Object.defineProperty(['a', 'b'], 1, { value: 'b', enumerable: false })
    const snapshot = snapshotJson(rootWith({ enum: list }))
    expect(snapshot.ok && snapshot.value).toEqual(rootWith({ enum: ['a', 'b'] }))
  })

  it('rejects a sparse array', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point of the test
    expect(found(rootWith({ enum: ['a', , 'c'] }))).toEqual([['/properties/p/enum/1', 'not-lossless-json']])
  })

  it('rejects NaN, Infinity, -0 and undefined values', () => {
    expect(found(rootWith({ type: 'number', maximum: Number.NaN }))).toEqual([
      ['/properties/p/maximum', 'not-lossless-json'],
    ])
    expect(found(rootWith({ type: 'number', maximum: Number.POSITIVE_INFINITY }))).toEqual([
      ['/properties/p/maximum', 'not-lossless-json'],
    ])
    expect(found(rootWith({ type: 'number', minimum: -0 }))).toEqual([
      ['/properties/p/minimum', 'not-lossless-json'],
    ])
    expect(found(rootWith({ type: 'number', minimum: undefined }))).toEqual([
      ['/properties/p/minimum', 'not-lossless-json'],
    ])
  })

  it('rejects a cycle with a pointer to where it closes', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} }
    ;(node.properties as Record<string, unknown>).self = node
    expect(found(node)).toEqual([['/properties/self', 'cycle']])
  })

  it('finds a cycle that closes deep in the schema, and a DAG shared deep in it is not one', () => {
    // The check scans the open containers at shallow depths and keeps a set past them: both must see the cycle.
    for (const depth of [3, 40, 300]) {
      const root = nested(depth)
      let innermost = root
      for (let level = 0; level < depth; level++)
        innermost = (innermost.properties as Record<string, Record<string, unknown>>).p!
      const shared = { type: 'string' }
      innermost.properties = { back: root, again: shared, twice: shared }
      innermost.type = 'object'
      const pointer = `${'/properties/p'.repeat(depth)}/properties/back`
      expect(found(root)).toEqual([[pointer, 'cycle']])
    }
  })

  it('accepts the same schema object shared in two places (a DAG is not a cycle)', () => {
    const text = { type: 'string' }
    const parameters = { type: 'object', properties: { a: text, b: text } }
    expect(found(parameters)).toEqual([])
  })

  it('rejects nesting deeper than the limit, and accepts it when the limit allows', () => {
    // nested(n) is 2n + 1 JSON levels: a schema and its `properties` map per level.
    expect(found(nested(200), { ...DEFAULT_LIMITS, maxDepth: 256 })).toEqual([
      [expect.any(String), 'too-deep'],
    ])
    expect(found(nested(200), { ...DEFAULT_LIMITS, maxDepth: 401 })).toEqual([])
    expect(found(nested(DEFAULT_LIMITS.maxDepth))).toEqual([[expect.any(String), 'too-deep']])
  })

  it('walks nesting far deeper than the call stack on explicit stacks, without RangeError', () => {
    // DSH's own suite registers 5,000 nested oneOf levels (10,004 JSON levels); the default limits admit it.
    let chain: unknown = { type: 'string' }
    for (let i = 0; i < 5_000; i++) chain = { oneOf: [chain, { type: 'null' }] }
    expect(found(rootWith(chain))).toEqual([])
    const unbounded = { maxDepth: 1e9, maxNodes: 1e9, maxChars: 1e9 }
    expect(found(nested(20_000), unbounded)).toEqual([])
    let deep: unknown = 1
    for (let i = 0; i < 50_000; i++) deep = [deep]
    expect(found(rootWith({ type: [deep] }), unbounded)).toEqual([['/properties/p/type', 'keyword-type']])
    expect(found(rootWith({ type: 'array', enum: [deep, deep] }), unbounded)).toEqual([
      ['/properties/p/enum', 'enum-duplicate'],
    ])
  })

  it('rejects a schema with more values than the node limit', () => {
    const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: 'string' }]))
    const limits = { ...DEFAULT_LIMITS, maxNodes: 60 }
    expect(found({ type: 'object', properties }, limits)).toEqual([[expect.any(String), 'too-large']])
    expect(found({ type: 'object', properties })).toEqual([])
  })

  it('rejects an object with more keys than the node limit before reading their values', () => {
    let reads = 0
    const wide = new Proxy(
      {},
      {
        ownKeys: () => Array.from({ length: 50 }, (_, i) => `k${i}`),
        getOwnPropertyDescriptor: () => {
          reads++
          return { value: {}, enumerable: true, configurable: true }
        },
      },
    )
    // A proxy is refused on sight; a plain wide object is refused on its key count alone.
    expect(found(wide)).toEqual([['', 'not-lossless-json']])
    expect(reads).toBe(0)
    const plain = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, {}]))
    expect(found(plain, { ...DEFAULT_LIMITS, maxNodes: 50 })).toEqual([['', 'too-large']])
  })

  it('rejects strings beyond the character limit', () => {
    const parameters = { type: 'object', description: 'x'.repeat(101), properties: {} }
    expect(found(parameters, { ...DEFAULT_LIMITS, maxChars: 100 })).toEqual([['/description', 'too-large']])
  })

  it('rejects an array longer than the node limit without walking its holes', () => {
    const huge = new Array(2 ** 31)
    expect(found(rootWith({ enum: huge }))).toEqual([['/properties/p/enum', 'too-large']])
  })

  it('reports what reading a value threw as `unreadable` instead of throwing', () => {
    const trap = () => {
      throw new Error('trap')
    }
    const exotic = Object.create(Object.create(null, { constructor: { get: trap } }))
    const result = checkToolParameters(rootWith(exotic))
    expect(result.violations.map((v) => [v.pointer, v.rule])).toEqual([['/properties/p', 'unreadable']])
    expect(result.violations[0]!.message).toContain('trap')
  })
})

describe('snapshotJson', () => {
  it('copies keys such as __proto__ and constructor as own data, without touching prototypes', () => {
    const input = JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"number"}}')
    const result = snapshotJson(input)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype)
    expect(Object.keys(result.value as object)).toEqual(['__proto__', 'constructor'])
    expect(JSON.stringify(result.value)).toBe(JSON.stringify(input))
  })

  it('returns a detached copy', () => {
    const input = { type: 'object', properties: { a: { type: 'string' } } }
    const result = snapshotJson(input)
    expect(
      result.ok && result.value !== input && (result.value as typeof input).properties !== input.properties,
    ).toBe(true)
    expect(result.ok && result.value).toEqual(input)
  })

  it('accepts null-prototype objects (JSON.stringify reads them the same way)', () => {
    const input = Object.assign(Object.create(null), { type: 'object' })
    expect(snapshotJson(input)).toEqual({ ok: true, value: { type: 'object' } })
  })
})

describe('proxies', () => {
  it('rejects a proxy, whose `get` can serve the serializer other data than its descriptors showed the check', () => {
    const declared = { type: 'object', properties: {} }
    const liar = new Proxy(declared, {
      get: (target, key) => (key === 'type' ? 'string' : Reflect.get(target, key)),
    })
    expect(JSON.stringify(liar)).toBe('{"type":"string","properties":{}}')
    expect(found(liar)).toEqual([['', 'not-lossless-json']])
    expect(() => enforceToolParameters(liar, { tool: 't' })).toThrow(JsonSchemaError)
  })

  it('rejects a revoked proxy without touching it', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(found(rootWith(proxy))).toEqual([['/properties/p', 'not-lossless-json']])
  })
})
