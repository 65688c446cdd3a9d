import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ShellCommand, shell, shellWord } from '../src/doctor/shell.ts'

/** What bash makes of a line of words: each argument `printf` receives, NUL-separated. */
function wordsBashReads(words: readonly string[]): string[] {
  const line = `printf '%s\\0' ${words.map(shellWord).join(' ')}`
  const out = execFileSync('bash', ['-c', line], { encoding: 'utf8' })
  return out.split('\0').slice(0, -1)
}

/** The characters that split, expand, glob, redirect or quote in a POSIX shell, and a path's usual ones. */
const HARD = [...' \'"\\$`!*?[]{}()<>|&;#~=%\n\t-./:@,+', 'é', '中']
const word = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HARD, 'a', 'Z', '0', '_'), maxLength: 12 }),
  fc.string({ maxLength: 12 }).map((text) => text.replaceAll('\0', '')),
  fc.constantFrom('', "'", "''", "it's a home", '-n', '--', '~', '$HOME', '$(touch x)', '*', 'a b'),
)

describe('doctor shell quoting', () => {
  it('every word reaches the command byte for byte, whatever it holds', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        // printf needs at least one argument after its format; a leading `x` keeps `-n` a word, not an option.
        expect(wordsBashReads(['x', ...words]).slice(1)).toEqual(words)
      }),
      { numRuns: 60 },
    )
  })

  it('leaves plain words bare and single-quotes the rest', () => {
    expect(shellWord('/usr/lib/node_modules/.bin')).toBe('/usr/lib/node_modules/.bin')
    expect(shellWord('@deepseek-ai/cordis@^4.0.1')).toBe("'@deepseek-ai/cordis@^4.0.1'")
    expect(shellWord("/tmp/it's a home")).toBe("'/tmp/it'\\''s a home'")
    expect(shellWord('')).toBe("''")
  })

  it('quotes each interpolated string and splices an interpolated command as it is', () => {
    const write = shell`printf -- ${'- id: hmr\\n'} > ${"/h/it's/x.yml"}`
    expect(write).toBeInstanceOf(ShellCommand)
    expect(shell`cd ${'/a b'} && ${write}`.line).toBe(
      "cd '/a b' && printf -- '- id: hmr\\n' > '/h/it'\\''s/x.yml'",
    )
  })
})
