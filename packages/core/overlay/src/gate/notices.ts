import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  isRepairable,
  type JsonSchemaError,
  type RepairReport,
  type ToolIdentity,
  type ValidatorProblem,
} from '@dsh-harden/tools'
import type { NoticeSink } from '../dsh/notice-sink.ts'

/**
 * Whether `@dsh-harden/cli` is on the npm registry. It is not yet (`npm view @dsh-harden/cli` answers E404), so no
 * notice prints an `npx` command; set this to true in the release that publishes it, and every notice and the Web
 * panel print {@link PUBLISHED_LINT_COMMAND}.
 */
export const CLI_PUBLISHED = false

/** Lints the current folder with the published CLI, on a Node 22 fetched for the run (DSH needs Node >= 22.19). */
export const PUBLISHED_LINT_COMMAND = 'npx -y -p node@22 -p @dsh-harden/cli dsh-harden lint .'

/** A word as a POSIX shell reads it back: as it is when plain, else single-quoted with `'\''` for `'`. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.split("'").join("'\\''")}'`
}

/**
 * The lint command of the dsh-harden checkout this module runs from, if it does (`<checkout>/packages/core/overlay/
 * {src,dist}/gate/notices.*`, next to `packages/cli`): that CLI on the checkout's own Node 22 (the `node` package its
 * install puts in `node_modules`), with absolute paths, so it runs as printed from any folder. An installed copy
 * (under a DSH profile's `node_modules`) has no checkout beside it.
 */
export function checkoutLintCommand(moduleUrl: string | URL = import.meta.url): string | undefined {
  const root = new URL('../../../../../', moduleUrl)
  const bin = fileURLToPath(new URL('packages/cli/bin/dsh-harden.js', root))
  try {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL('packages/cli/package.json', root)), 'utf8'),
    ) as { name?: unknown }
    if (manifest.name !== '@dsh-harden/cli' || !existsSync(bin)) return undefined
  } catch {
    return undefined
  }
  const node = fileURLToPath(new URL('node_modules/node/bin/node', root))
  return `${existsSync(node) ? shellWord(node) : 'node'} ${shellWord(bin)} lint .`
}

let lintCommandOnce: { readonly value: string | undefined } | undefined

/**
 * The command a plugin author runs from the plugin's folder to get the overlay's verdicts before publishing, when
 * one runs today: this checkout's CLI, else (once published) the `npx` form; undefined when neither exists here.
 */
export function lintCommand(): string | undefined {
  lintCommandOnce ??= { value: checkoutLintCommand() ?? (CLI_PUBLISHED ? PUBLISHED_LINT_COMMAND : undefined) }
  return lintCommandOnce.value
}

/**
 * What an author reads last, ending the notice: the command (last, with no period after it, so a copied line runs
 * as printed), or how to get one; no placeholder to fill, no command that fails.
 */
export function lintAdvice(command: string | null = lintCommand() ?? null): string {
  return command === null
    ? 'then check it with dsh-harden lint, which runs from a dsh-harden checkout (INSTALL.md, "The CLI"; it is not on npm yet).'
    : `then check it from the plugin's folder with: ${command}`
}

function describe(identity: ToolIdentity, early: boolean, packageName: string | undefined): string {
  const tool = `tool ${JSON.stringify(identity.tool)}`
  const installed =
    packageName === undefined || packageName === identity.source
      ? ''
      : ` (package ${JSON.stringify(packageName)})`
  const from =
    identity.source === undefined ? '' : ` from plugin ${JSON.stringify(identity.source)}${installed}`
  if (!early) return tool + from
  // Without the `@dsh-harden/overlay/early` row, nothing recorded who registered a tool before the overlay started.
  return identity.source === undefined
    ? `${tool} (registered before dsh-harden started; its plugin is not known)`
    : `${tool}${from} (registered before dsh-harden started)`
}

/** How a user takes a plugin out of a profile (rc.8 `dsh plugin --profile <name> remove <package>`, a pnpm forwarder). */
function removeCommand(packageName: string | undefined): string {
  const what = packageName === undefined ? 'followed by the npm package it came from' : shellWord(packageName)
  return `dsh plugin --profile PROFILE remove ${what} (PROFILE: web for dsh web, else the name you pass to --profile)`
}

/** What a user can do before the plugin is fixed: repair it (when that has one meaning), remove it, or report it. */
function userActions(error: JsonSchemaError, packageName: string | undefined): string {
  const repair = isRepairable(error.details)
    ? 'set mode: repair on the dsh-harden row of the profile (in its cordis.patch.yml: - id: dsh-harden, config: mode: repair); each mistake here has exactly one meaning, so the overlay repairs it and the model gets the tool. Or '
    : ''
  return `What you can do now: ${repair}remove the plugin with ${removeCommand(packageName)}, or report it to its author.`
}

/**
 * Once per overlay: why schemas go out as declared instead of projected for the route (`Projection.notProjected`),
 * however many tools and assemblies that affects.
 */
export function notProjectedOnce(notify: NoticeSink): (reason: string) => void {
  let told = false
  return (reason) => {
    if (told) return
    told = true
    notify(`dsh-harden: ${reason}.`)
  }
}

/**
 * A tool a route cannot be sent (inlining its references would pass the wire's byte budget): the user learns it is
 * left out of that route's requests, and why, with the sizes; once per tool and route.
 */
export function withheldOnRouteNotice(tool: string, profile: string, reason: string): string {
  return `dsh-harden: tool "${tool}" is not offered to the model on the ${profile} route (every other tool is): ${reason}`
}

/**
 * One line per refused tool, for both readers: the user learns what happens now and what to do (repair, remove,
 * report); the author gets each JSON pointer with its fix and a lint command that runs as printed. The same in either
 * load order, since a refused tool is withheld the same way whether it registered before the overlay started or after.
 * `packageName` is the npm package the plugin came from, when the caller knows it.
 */
export function refusalNotice(error: JsonSchemaError, early = false, packageName?: string): string {
  return (
    `dsh-harden: ${describe(error, early, packageName)} is withheld: the model never sees it and a call to it fails ` +
    "as an unknown tool; names that mention it (toolOrder, a subagent's toolFilter) keep working, and so do the " +
    `plugin's other tools. ${userActions(error, packageName)} For the plugin's author: its parameters: ` +
    `${error.violations.join('; ')}. Fix the tool definition, ${lintAdvice()}`
  )
}

/** One line per repaired tool: what was repaired where, that the repaired schema is what the model gets, the fix. */
export function repairNotice(report: RepairReport, early = false, packageName?: string): string {
  const what = report.repaired.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ')
  return (
    `dsh-harden: ${describe(report.identity, early, packageName)} is sent with repaired parameters (${what}); ` +
    `nothing to do for you. For the plugin's author: declare them correctly, ${lintAdvice()}`
  )
}

/**
 * One line per tool whose declared schema ajv cannot compile: the tool stays registered, and what checks its
 * arguments instead (the fallback) is named, with the construct to change.
 */
export function validatorProblemNotice(
  problem: ValidatorProblem,
  early = false,
  packageName?: string,
): string {
  return (
    `dsh-harden: ${describe(problem.identity, early, packageName)} is registered, but ajv cannot compile its ` +
    `parameters: ${problem.construct} (${problem.detail}). Its arguments are checked by ${problem.fallback} instead. ` +
    `For the plugin's author: change that construct so ajv compiles it, ${lintAdvice()}`
  )
}
