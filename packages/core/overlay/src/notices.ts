import type { Context } from '@deepseek-ai/cordis'
import type { JsonSchemaError, RepairReport, ToolIdentity, ValidatorProblem } from '@dsh-harden/tools'

/** Where the overlay tells the user about a refused or repaired tool. */
export type NoticeSink = (line: string) => void

function describe(identity: ToolIdentity, early: boolean): string {
  const tool = `tool ${JSON.stringify(identity.tool)}`
  const from = identity.source === undefined ? '' : ` from plugin ${JSON.stringify(identity.source)}`
  if (!early) return tool + from
  // Without the `@dsh-harden/overlay/early` row, nothing recorded who registered a tool before the overlay started.
  return identity.source === undefined
    ? `${tool} (registered before dsh-harden started; its plugin is not known)`
    : `${tool}${from} (registered before dsh-harden started)`
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
 * One line per refused tool: plugin, tool, each JSON pointer with its fix, and what happens now — the same in either
 * load order, since a refused tool is withheld the same way whether it registered before the overlay started or after.
 */
export function refusalNotice(error: JsonSchemaError, early = false): string {
  return (
    `dsh-harden: ${describe(error, early)} is withheld: the model never sees it and a call to it fails as an unknown ` +
    "tool; names that mention it (toolOrder, a subagent's toolFilter) keep working, and so do the plugin's other " +
    `tools. Its parameters: ${error.violations.join('; ')}. Fix the plugin's tool definition, then check it from ` +
    "the plugin's folder with `npx @dsh-harden/cli lint .` (from a dsh-harden clone: " +
    '`pnpm -C <clone> dsh-harden lint .`).'
  )
}

/** One line per repaired tool: what was repaired where, and that the repaired schema is what the model gets. */
export function repairNotice(report: RepairReport, early = false): string {
  const what = report.repaired.map((v) => `${v.pointer || '(root)'}: ${v.message}`).join('; ')
  return (
    `dsh-harden: ${describe(report.identity, early)} is sent with repaired parameters (${what}). Fix the plugin so ` +
    'it declares them correctly.'
  )
}

/**
 * One line per tool whose declared schema ajv cannot compile: the tool stays registered, and what checks its
 * arguments instead (the fallback) is named, with the construct to change.
 */
export function validatorProblemNotice(problem: ValidatorProblem, early = false): string {
  return (
    `dsh-harden: ${describe(problem.identity, early)} is registered, but ajv cannot compile its parameters: ` +
    `${problem.construct} (${problem.detail}). Its arguments are checked by ${problem.fallback} instead. Fix the ` +
    "plugin's tool definition so ajv compiles it."
  )
}

/** Where a caller without a notice channel (a bare `guardRegister`) still sees each notice: stderr. */
export function stderrOnly(line: string): void {
  process.stderr.write(`${line}\n`)
}

/**
 * Writes each notice to stderr, where a headless run shows it (DSH's `ctx.logger` output only goes to cordis'
 * in-memory buffer unless something exports it), and to the `dsh-harden` logger for any exporter a host adds.
 */
export function stderrAndLogger(ctx: Context): NoticeSink {
  const logger = ctx.logger('dsh-harden')
  return (line) => {
    process.stderr.write(`${line}\n`)
    logger.warn(line)
  }
}
