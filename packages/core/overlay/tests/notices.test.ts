import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { JsonSchemaError, type SchemaViolation } from '@dsh-harden/tools'
import { afterAll, describe, expect, it } from 'vitest'
import {
  CLI_PUBLISHED,
  checkoutLintCommand,
  lintAdvice,
  lintCommand,
  PUBLISHED_LINT_COMMAND,
  refusalNotice,
  repairNotice,
  validatorProblemNotice,
} from '../src/gate/notices.ts'

/**
 * A refusal notice speaks to two readers: the user learns what to do now (repair, remove, report), the plugin's
 * author gets each pointer with its fix and a lint command that runs, as printed, from the plugin's folder.
 */
const id = { tool: 'acme_bare', source: 'acme-dsh-tools' }
const bare: SchemaViolation = {
  pointer: '',
  rule: 'bare-property-table',
  message: 'this is a bare property table',
  hint: 'wrap it',
}
const emptyEnum: SchemaViolation = {
  pointer: '/properties/a/enum',
  rule: 'enum-empty',
  message: 'an empty enum',
  hint: 'list values',
}

const scratch = mkdtempSync(join(tmpdir(), "dsh-harden notices 'q' "))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A plugin folder whose one tool is fine, so a working lint exits 0. */
function pluginFolder(): string {
  const dir = join(scratch, `plugin ${Math.random().toString(36).slice(2)}`)
  mkdirSync(dir)
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'acme-ok', type: 'module', main: 'index.js' }),
  )
  writeFileSync(
    join(dir, 'index.js'),
    `export const name = 'acme-ok'
export const inject = ['tools']
export function apply(ctx) {
  ctx.tools.register({ name: 'ok', description: 'ok', parameters: { type: 'object', properties: {} },
    output: { schema: {}, render: () => [] }, execute: async () => 'ok' })
}
`,
  )
  return dir
}

/** The command as a user pastes it into bash in `cwd`. */
function paste(command: string, cwd: string): string {
  return execFileSync('bash', ['-c', command], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

describe('the author’s lint command', () => {
  it('is printed with no placeholder and no unpublished npx, and runs as printed from the plugin folder', () => {
    const notice = refusalNotice(new JsonSchemaError(id, [bare]))
    expect(notice).not.toMatch(/<[a-z][\w-]*>/i)
    if (!CLI_PUBLISHED) expect(notice).not.toContain('npx')
    const command = lintCommand()
    expect(command, 'this checkout has a CLI').toBeDefined()
    // Last on the line, with no period after it: a copied line runs as printed.
    expect(notice.endsWith(`from the plugin's folder with: ${command}`)).toBe(true)
    expect(paste(command!, pluginFolder())).toContain('1 tool, all ok')
  })

  it('quotes the checkout path, so a checkout under a folder with a space and a quote still runs', () => {
    // A checkout seen through a path with a space and a quote: the same CLI and Node, linked in.
    const root = join(scratch, "my 'checkout'")
    mkdirSync(join(root, 'packages'), { recursive: true })
    symlinkSync(join(import.meta.dirname, '..', '..', '..', 'cli'), join(root, 'packages', 'cli'))
    symlinkSync(join(import.meta.dirname, '..', '..', '..', '..', 'node_modules'), join(root, 'node_modules'))
    const command = checkoutLintCommand(
      pathToFileURL(join(root, 'packages/core/overlay/src/gate/notices.ts')),
    )!
    expect(command).toContain("'\\''")
    expect(paste(command, pluginFolder())).toContain('1 tool, all ok')
  })

  it('in an installed copy with no checkout beside it, says how to get one instead of printing a command', () => {
    const installed = pathToFileURL(join(scratch, 'node_modules/@dsh-harden/overlay/dist/notices.js'))
    expect(checkoutLintCommand(installed)).toBeUndefined()
    const advice = lintAdvice(null)
    expect(advice).toContain('dsh-harden checkout')
    expect(advice).not.toMatch(/<[a-z][\w-]*>|npx/)
    expect(PUBLISHED_LINT_COMMAND).toMatch(/^npx .*@dsh-harden\/cli dsh-harden lint \.$/)
  })
})

describe('what the user can do now', () => {
  it('offers mode: repair exactly when every finding has one meaning, and always remove or report', () => {
    const repairable = refusalNotice(new JsonSchemaError(id, [bare]), false, '@acme/dsh-tools')
    expect(repairable).toContain('mode: repair')
    expect(repairable).toContain('dsh plugin --profile PROFILE remove @acme/dsh-tools')
    expect(repairable).toContain('report it to its author')
    const notRepairable = refusalNotice(new JsonSchemaError(id, [bare, emptyEnum]))
    expect(notRepairable).not.toContain('mode: repair')
    expect(notRepairable).toContain('remove the plugin')
  })

  it('names the installed package beside the plugin name when the caller knows it', () => {
    expect(refusalNotice(new JsonSchemaError(id, [bare]), false, '@acme/dsh-tools')).toContain(
      'from plugin "acme-dsh-tools" (package "@acme/dsh-tools")',
    )
    expect(repairNotice({ identity: id, repaired: [bare] }, false, 'acme-dsh-tools')).toContain(
      'from plugin "acme-dsh-tools" is sent',
    )
  })

  it('tells the author of a repaired or uncompilable tool the same lint command', () => {
    const advice = lintAdvice()
    expect(repairNotice({ identity: id, repaired: [bare] }).endsWith(advice)).toBe(true)
    const problem = { identity: id, construct: 'c', detail: 'd', fallback: 'DSH validateJsonSchemaValue' }
    expect(validatorProblemNotice(problem).endsWith(advice)).toBe(true)
  })
})
