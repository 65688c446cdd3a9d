/**
 * The regex constructs of a `pattern` that some provider engines refuse although ECMA-262 (the JSON Schema dialect of
 * regexes) has them. Read in one left-to-right pass, so a pattern costs time linear in its length.
 */
export type RegexFeature =
  | 'lookaround' // (?=…) (?!…) (?<=…) (?<!…)
  | 'backreference' // \1 … \9, \k<name>
  | 'unicode-property' // \p{…} \P{…}
  | 'octal-escape' // \0 and other digit escapes inside a class
  | 'named-group' // (?<name>…)

export const REGEX_FEATURE_TEXT: Readonly<Record<RegexFeature, string>> = {
  lookaround: 'regex lookaround',
  backreference: 'a backreference',
  'unicode-property': 'a Unicode property escape (\\p{…})',
  'octal-escape': 'a \\0 or octal escape',
  'named-group': 'a named group',
}

/** Every feature of `REGEX_FEATURE_TEXT` that `pattern` uses. */
export function regexFeatures(pattern: string): Set<RegexFeature> {
  const found = new Set<RegexFeature>()
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]
    if (char === '\\') {
      const next = pattern[i + 1]
      if (next === 'p' || next === 'P') {
        if (pattern[i + 2] === '{') found.add('unicode-property')
      } else if (next === 'k' && pattern[i + 2] === '<' && !inClass) found.add('backreference')
      else if (next === '0') found.add('octal-escape')
      else if (next !== undefined && next >= '1' && next <= '9')
        found.add(inClass ? 'octal-escape' : 'backreference')
      i++ // the escaped character is never a metacharacter
      continue
    }
    if (inClass) {
      if (char === ']') inClass = false
      continue
    }
    if (char === '[') inClass = true
    else if (char === '(' && pattern[i + 1] === '?') {
      const kind = pattern[i + 2]
      if (kind === '=' || kind === '!') found.add('lookaround')
      else if (kind === '<') {
        const after = pattern[i + 3]
        found.add(after === '=' || after === '!' ? 'lookaround' : 'named-group')
      }
    }
  }
  return found
}

/** The first feature of `pattern` that `refused` lists, or `undefined` when the route's engine takes it. */
export function refusedFeature(
  pattern: string,
  refused: ReadonlySet<RegexFeature>,
): RegexFeature | undefined {
  if (refused.size === 0) return undefined
  for (const feature of regexFeatures(pattern)) if (refused.has(feature)) return feature
  return undefined
}
