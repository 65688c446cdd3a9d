/**
 * Why a pattern cannot run on the linear-time engine: the error a refused pattern compiles to, and every construct
 * the translation refuses, each with a hint a schema author can act on.
 */
export class UnsupportedPatternError extends Error {
  override readonly name = 'UnsupportedPatternError'
  readonly pattern: string
  /** What the pattern uses, in words a schema author can act on. */
  readonly construct: string
  /** How to rewrite the pattern so that it runs. */
  readonly hint: string

  constructor(pattern: string, construct: string, hint: string) {
    super(
      `pattern ${JSON.stringify(pattern)} cannot run on the linear-time regex engine (RE2) with ECMAScript's meaning: it uses ${construct}; ${hint}`,
    )
    this.pattern = pattern
    this.construct = construct
    this.hint = hint
  }
}

/** A construct the translation refuses, before the pattern text is known. */
export interface Refusal {
  readonly construct: string
  readonly hint: string
}

/** Thrown inside a translation to stop it: the one refusal the pattern gets. */
export class Refused {
  readonly refusal: Refusal
  constructor(refusal: Refusal) {
    this.refusal = refusal
  }
}

/** The budget of RE2 syntax one pattern may become, so a hostile pattern cannot build a huge program. */
export const MAX_TRANSLATED_LENGTH = 1 << 18

export const LOOKAROUND: Refusal = {
  construct: 'lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`)',
  hint: 'rewrite the pattern without lookaround',
}
export const BACKREFERENCE: Refusal = {
  construct: 'a backreference (`\\1`, `\\k<name>`)',
  hint: 'rewrite the pattern without backreferences',
}
export const MODIFIER_GROUP: Refusal = {
  construct: 'an inline modifier group (`(?i:…)`, `(?-m:…)`)',
  hint: 'write the group without flags (e.g. `[Aa]` for a case-insensitive `a`)',
}
export const LARGE_COUNT: Refusal = {
  construct: 'a repetition count above 1000 (RE2 expands `{n,m}` and stops at 1000)',
  hint: 'use a count of at most 1000, or `*` / `+` with `maxLength` on the string',
}
export const TOO_LARGE: Refusal = {
  construct: `more than ${MAX_TRANSLATED_LENGTH} characters of RE2 syntax once each character class is written out`,
  hint: 'use fewer or smaller character classes (`\\s`, `\\S`, `\\p{…}`, `.` and negated classes are long written out)',
}

export const EMPTY_NON_BOUNDARY: Refusal = {
  construct:
    'a `\\B` through which the pattern matches an empty string (V8 also finds that empty match between the two halves of a surrogate pair, where the ECMAScript specification and RE2 do not)',
  hint: 'make the pattern consume at least one character next to `\\B`',
}

export function invalidInUnicodeMode(detail: string): Refusal {
  return {
    construct: `syntax that ECMAScript rejects in Unicode mode (the \`u\` flag JSON Schema validators use): ${detail}`,
    hint: 'escape only syntax characters (`\\-` only inside `[…]`) and write a literal `{`, `}` or `]` as `\\{`, `\\}`, `\\]`',
  }
}

export function rejectedByRe2(detail: string): Refusal {
  if (detail.startsWith('invalid repeat count'))
    return {
      construct: `nested repetition counts whose product is above 1000, RE2's limit (${detail})`,
      hint: 'use smaller counts, or `*` / `+` with `maxLength` on the string',
    }
  return {
    construct: `a structure RE2 does not compile (${detail})`,
    hint: 'nest fewer groups and use smaller repetition counts',
  }
}
