/**
 * Names a route restricts (tool names, property keys) and the reversible renaming that puts a refused name on the
 * wire. A rename is a table for one set of names (the tools of one request, the keys of one object): names the route
 * takes keep themselves, every other one gets the closest name the route takes that no name of the set uses, so the
 * table is a bijection and the model's answer maps back exactly.
 */
export interface NameRule {
  /** The pattern as its source writes it, for reports. */
  readonly text: string
  /** Characters allowed as the first one, and after it; `_` must be allowed in both (renames write it). */
  readonly first: RegExp
  readonly rest: RegExp
  /** The whole name at once (`first` then any number of `rest`), so a check is one regex test, not one per character. */
  readonly whole: RegExp
  readonly maxLength: number
}

/** A source-quoted pattern `^[first][rest]{0,max-1}$` (or `^[rest]{1,max}$` when `first` is `rest`). */
export function nameRule(text: string, first: string, rest: string, maxLength: number): NameRule {
  return {
    text,
    first: new RegExp(`^[${first}]$`, 'u'),
    rest: new RegExp(`^[${rest}]$`, 'u'),
    // `u`: classes match code points, as the per-character `escaped` walks them.
    whole: new RegExp(`^[${first}][${rest}]*$`, 'u'),
    maxLength,
  }
}

export function meetsName(name: string, rule: NameRule): boolean {
  return name.length > 0 && name.length <= rule.maxLength && rule.whole.test(name)
}

/** The two directions of one rename table; only renamed names are listed. */
export interface Renames {
  /** Declared name → wire name. */
  readonly toWire: ReadonlyMap<string, string>
  /** Wire name → declared name. */
  readonly fromWire: ReadonlyMap<string, string>
}

// FNV-1a, 32 bits: a short deterministic suffix with no platform dependency (core/tools also runs outside Node).
function hash8(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}

/** Every refused character becomes `_`; the readable part of the wire name. */
function escaped(name: string, rule: NameRule): string {
  let out = ''
  for (const char of name) out += (out.length === 0 ? rule.first : rule.rest).test(char) ? char : '_'
  return out.length === 0 ? '_' : out
}

/**
 * The rename table for `names` under `rule`, or `undefined` when the route takes every name as it is. Linear in the
 * total length of the names (a collision costs one more candidate, and at most the set's size of them).
 */
export function renameAll(names: Iterable<string>, rule: NameRule): Renames | undefined {
  const all = [...names]
  // The common case, every name taken as it is, costs one test per name and builds nothing (it runs per request).
  if (all.every((name) => meetsName(name, rule))) return undefined
  const taken = new Set(all.filter((name) => meetsName(name, rule)))
  const toWire = new Map<string, string>()
  const fromWire = new Map<string, string>()
  for (const name of all) {
    if (toWire.has(name) || meetsName(name, rule)) continue
    const base = escaped(name, rule)
    let wire = base.length <= rule.maxLength && !taken.has(base) ? base : undefined
    // A suffix of the name's hash (and a counter on the rare hash collision) keeps it unique within the bound.
    for (let attempt = 0; wire === undefined; attempt++) {
      const suffix = `_${hash8(attempt === 0 ? name : `${name}\u0000${attempt}`)}`
      const candidate = base.slice(0, rule.maxLength - suffix.length) + suffix
      if (!taken.has(candidate)) wire = candidate
    }
    taken.add(wire)
    toWire.set(name, wire)
    fromWire.set(wire, name)
  }
  return { toWire, fromWire }
}
