import { Context } from '@deepseek-ai/cordis'
import Timer from '@deepseek-ai/cordis-plugin-timer'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import {
  installOnToolsService,
  type RegisteredTool,
  type RegisterMethod,
  type RegistrationVerdict,
  validatorProblemNotice,
} from '@dsh-harden/overlay'
import type { ValidatorProblem } from '@dsh-harden/tools'
import { captureUncaught } from '../uncaught.ts'
import { messageOf, readInject } from './inject.ts'
import { type LoadedPlugin, PluginLoadError } from './load.ts'
import { asMainScript } from './main-script.ts'
import type { LintReport, ToolViolation } from './report.ts'
import { createStandIn } from './stand-in.ts'
import { divertStdout } from './stdout.ts'

export interface MountOptions {
  /** The path as the user typed it, for messages. */
  readonly display: string
  /** How long the plugin may take to load before lint reports a timeout. */
  readonly timeoutMs: number
}

interface ToolEntry {
  readonly name: string
  readonly source: string | null
  readonly errors: ToolViolation[]
  readonly description: string | undefined
  parameters?: unknown
}

/** cordis `FiberState.PENDING`: the plugin is still waiting for an injected service. */
const FIBER_PENDING = 0
const ORIGINAL = Symbol.for('cordis.original')

/**
 * Mounts the plugin in a real DSH runtime (cordis `Context` + `SystemPrompt` + `ToolRuntime`) with the overlay in
 * `collect` mode, and returns one verdict per `ctx.tools.register()` call. Throws `PluginLoadError` when the plugin
 * could not run far enough to register anything.
 */
export async function mountAndLint(loaded: LoadedPlugin, options: MountOptions): Promise<LintReport> {
  const app = await startRuntime()
  const tools: ToolEntry[] = []
  const findings: string[] = []
  const notes: string[] = []
  // A schema ajv cannot compile still registers (DSH's own validator checks its arguments): a note, not a failure.
  const onValidatorProblem = (problem: ValidatorProblem): void => {
    notes.push(validatorProblemNotice(problem).replace(/^dsh-harden: /, ''))
  }
  await app.plugin(collector(tools, loaded.name ?? null, onValidatorProblem))

  const inject = readInject(loaded.plugin)
  notes.push(...inject.notes)
  const missing = inject.required.filter((name) => app.get(name) === undefined)
  const standIns = await provideStandIns(app, missing, notes)

  const stopCapture = captureUncaught((kind, error) => {
    findings.push(
      `${kind === 'error' ? 'an uncaught error' : 'an unhandled rejection'} escaped the plugin: ${messageOf(error)}`,
    )
  })
  const restoreStdout = divertStdout()
  let loadFailure: string | undefined
  try {
    loadFailure = await asMainScript(loaded.file, () => runPlugin(app, loaded, options.timeoutMs))
    // Node reports an unhandled rejection only after the current macrotask; give one made during apply that chance.
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    restoreStdout()
    stopCapture()
  }
  if (loadFailure !== undefined) {
    if (tools.length === 0)
      throw new PluginLoadError(`${options.display}: ${loadFailure}${standInHint(standIns)}`, notes)
    findings.unshift(`${loadFailure}${standInHint(standIns)}`)
  } else if (tools.length === 0) {
    notes.push(
      'the plugin loaded but registered no tools (registrations made later, e.g. from timers or events, are not seen)',
    )
  }
  return {
    plugin: { path: options.display, name: loaded.name ?? null },
    tools: tools.map((tool) => ({ ...tool, ok: tool.errors.length === 0 })),
    standIns,
    findings,
    notes,
  }
}

/**
 * The services a plugin meets in DSH before any of its own: the `timer` row of dsh-base (cordis-plugin-timer, whose
 * mixins give every context `ctx.setTimeout`, `ctx.interval`, `ctx.sleep` …; a stand-in cannot, since cordis checks a
 * mixin's owner service), then the system prompt and the tool runtime.
 */
async function startRuntime(): Promise<Context> {
  const app = new Context()
  try {
    await app.plugin(Timer)
    await app.plugin(SystemPrompt)
    await app.plugin(ToolRuntime)
  } catch (error) {
    throw new Error(
      `could not start the DSH runtime (cordis-plugin-timer + dsh-system-prompt + dsh-tools): ${messageOf(error)}`,
    )
  }
  return app
}

/** Runs the plugin to the end of `apply`, bounded in time. Returns why it did not load, or `undefined`. */
async function runPlugin(app: Context, loaded: LoadedPlugin, timeoutMs: number): Promise<string | undefined> {
  let fiber: ReturnType<Context['plugin']>
  try {
    fiber = app.plugin(loaded.plugin as Parameters<Context['plugin']>[0])
  } catch (error) {
    return `cordis refused the plugin: ${messageOf(error)}`
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    const settled = await Promise.race([Promise.resolve(fiber).then(() => 'loaded' as const), timeout])
    if (settled === 'timeout')
      return `the plugin did not finish loading within ${formatSeconds(timeoutMs)} (its apply is still pending)`
  } catch (error) {
    return `the plugin's apply threw: ${messageOf(error)}`
  } finally {
    clearTimeout(timer)
  }
  if (fiber.state === FIBER_PENDING) {
    const waiting = Object.keys(fiber.inject).filter((name) => app.get(name) === undefined)
    return `the plugin never started: cordis is still waiting for ${waiting.map((name) => JSON.stringify(name)).join(', ') || 'an injected service'}`
  }
  return undefined
}

/**
 * The lint plugin: DSH's own `register` checks (output, timeoutMs, reserved and duplicate names) are caught and
 * reported instead of ending `apply`, then the overlay guards the root contract in `collect` mode on top of them.
 */
function collector(
  tools: ToolEntry[],
  pluginName: string | null,
  onValidatorProblem: (problem: ValidatorProblem) => void,
) {
  let passed: ToolEntry | undefined
  let incoming: RegisteredTool | undefined
  const onVerdict = ({ identity, error }: RegistrationVerdict): void => {
    const entry: ToolEntry = {
      name: identity.tool,
      source: identity.source ?? null,
      errors: [],
      description: descriptionOf(incoming),
    }
    if (error !== null) entry.errors.push(...error.details)
    tools.push(entry)
    passed = error === null ? entry : undefined
  }
  return {
    name: 'dsh-harden-lint',
    inject: ['tools'],
    apply(ctx: Context): void {
      const raw = rawTools(ctx)
      const dshRegister = raw.register
      raw.register = function register(this: unknown, definition: RegisteredTool): () => void {
        const entry = passed
        passed = undefined
        if (entry !== undefined) entry.parameters = definition.parameters
        try {
          return dshRegister.call(this, definition)
        } catch (error) {
          const target = entry ?? {
            name: toolName(definition),
            source: pluginName,
            errors: [],
            description: descriptionOf(definition),
          }
          if (entry === undefined) tools.push(target)
          target.errors.push(dshRejection(error))
          return () => {}
        }
      }
      ctx.effect(
        () => () => delete (raw as Partial<typeof raw>).register,
        'dsh-harden lint: catch DSH register errors',
      )
      ctx.effect(
        () => installOnToolsService(ctx, { mode: 'collect', onVerdict, onValidatorProblem }),
        'dsh-harden lint: collect verdicts',
      )
      // Outermost: the definition as the plugin passed it, so even a failing tool's description is known.
      ctx.effect(() => {
        const guarded = raw.register
        raw.register = function register(this: unknown, definition: RegisteredTool): () => void {
          incoming = definition
          try {
            return guarded.call(this, definition)
          } finally {
            incoming = undefined
          }
        }
        return () => {
          raw.register = guarded
        }
      }, 'dsh-harden lint: see each definition as passed')
    },
  }
}

function rawTools(ctx: Context): { register: RegisterMethod } {
  const proxy = (ctx as unknown as { tools: Record<symbol, unknown> & { register: RegisterMethod } }).tools
  return (proxy[ORIGINAL] as { register: RegisterMethod } | undefined) ?? proxy
}

function descriptionOf(definition: RegisteredTool | undefined): string | undefined {
  try {
    const description = (definition as { description?: unknown } | undefined)?.description
    return typeof description === 'string' ? description : undefined
  } catch {
    return undefined
  }
}

function toolName(definition: RegisteredTool): string {
  try {
    return typeof definition?.name === 'string' ? definition.name : '<unnamed>'
  } catch {
    return '<unreadable name>'
  }
}

/** DSH's `ToolRuntime.register` rejected the definition for a reason outside `parameters`; say what to change. */
function dshRejection(error: unknown): ToolViolation {
  const message = error instanceof Error ? error.message : messageOf(error)
  const rule = 'dsh-register'
  if (/must declare output/.test(message)) {
    return {
      pointer: '',
      rule,
      message,
      hint: 'give the definition output: { schema, render(args, value) } (presentationMeta optional)',
    }
  }
  if (/already registered/.test(message)) {
    return { pointer: '', rule, message, hint: 'register each tool name once; rename one of the tools' }
  }
  if (/run_code/.test(message))
    return { pointer: '', rule, message, hint: 'rename the tool: run_code is reserved by DSH' }
  if (/timeoutMs/.test(message))
    return { pointer: '', rule, message, hint: 'set timeoutMs to a finite number > 0, or omit it' }
  if (/unsupported JSON schema/.test(message)) {
    return {
      pointer: '',
      rule,
      message,
      hint: 'output.schema must stay within the JSON Schema subset DSH supports (see the message)',
    }
  }
  return {
    pointer: '',
    rule,
    message,
    hint: "DSH's ToolRuntime.register rejected this definition; fix what the message names",
  }
}

async function provideStandIns(app: Context, missing: readonly string[], notes: string[]): Promise<string[]> {
  const standIns: string[] = []
  for (const name of missing) {
    if (name in app) {
      notes.push(
        `\`inject\` names "${name}", a built-in cordis context property rather than a provided service; cordis 4 waits ` +
          'for it and lint does not replace built-ins. Remove it from `inject` (ctx.' +
          name +
          ' is always available).',
      )
      continue
    }
    standIns.push(name)
  }
  if (standIns.length === 0) return standIns
  const provided: string[] = []
  await app.plugin({
    name: 'dsh-harden-lint-stand-ins',
    apply(ctx: Context) {
      for (const name of standIns) {
        try {
          ctx.provide(name, createStandIn(name))
          provided.push(name)
        } catch (error) {
          notes.push(`could not stand in for service "${name}": ${messageOf(error)}`)
        }
      }
    },
  })
  return provided
}

function standInHint(standIns: readonly string[]): string {
  if (standIns.length === 0) return ''
  const names = standIns.map((name) => JSON.stringify(name)).join(', ')
  return ` (lint stood in for ${names}; if apply needs real values from ${standIns.length === 1 ? 'that service' : 'those services'}, the cause may be the stand-in)`
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
