import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const INDEX = new URL('../src/index.ts', import.meta.url).href

/**
 * In a fresh process: how many files of ajv, ajv-formats and re2js are loaded after importing the package, and after
 * the first validation of a schema with a `pattern`.
 */
function loadedFiles(): { readonly imported: number; readonly validated: number } {
  const script = `
    import { createRequire } from 'node:module'
    const cache = createRequire(import.meta.url).cache
    const loaded = () => Object.keys(cache).filter((file) => /[\\\\/]node_modules[\\\\/](ajv|ajv-formats|re2js)[\\\\/]/.test(file)).length
    const tools = await import(${JSON.stringify(INDEX)})
    const imported = loaded()
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^a' } } }
    tools.createToolContract(schema, { tool: 'probe' }).validate({ id: 'b' })
    console.log(JSON.stringify({ imported, validated: loaded() }))
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

describe('heavy dependencies', () => {
  it('are loaded by the first validation, not by importing the package (about 80 ms of CPU at every DSH start)', () => {
    const { imported, validated } = loadedFiles()
    expect(imported).toBe(0)
    expect(validated).toBeGreaterThan(10)
  })
})
