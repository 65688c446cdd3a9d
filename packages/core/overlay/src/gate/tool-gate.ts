import type { JsonSchemaError, ToolContract, ValidatorProblem } from '@dsh-harden/tools'
import type { Admission } from '../dsh/instance-state.ts'
import { originOf } from '../dsh/instance-state.ts'
import type { NoticeSink } from '../dsh/notice-sink.ts'
import { packageOfSpecifier } from '../dsh/plugin-package.ts'
import type { Registration } from '../dsh/registrant.ts'
import type { DshRegistry } from '../dsh/registry.ts'
import { declaresCanonicalOutput, type RegisteredTool } from '../dsh/tool-definition.ts'
import { asRegistered } from '../dsh/transforms.ts'
import type { ToolVerdict, VerdictLedger } from '../dsh/verdicts.ts'
import { createJudge, type Judge, type Judgement, type JudgeOptions, judgeTool } from './judge.ts'
import { refusalNotice, repairNotice, validatorProblemNotice } from './notices.ts'
import type { Admitted } from './register-door.ts'

/**
 * Where the gate hands each accepted tool, so the route a session uses can be applied where DSH assembles the request
 * (`route/route-projection.ts`) and calls are read back at DSH's call door (`route/declared-calls.ts`).
 */
export interface RoutedBinding {
  /** Called once per accepted tool with the definition readers see and the contract compiled for it. */
  readonly remember: (definition: object, contract: ToolContract) => void
}

/** Where a definition met the overlay: its registration, the start-up sweep, or a rebuild for a late transform. */
type Path = 'register' | 'early' | 'rebuild'

function verdictOf(judgement: Judgement<unknown>, early: boolean): ToolVerdict {
  const { identity } = judgement
  if (judgement.kind === 'refused') return { kind: 'withheld', identity, early, error: judgement.error }
  if (judgement.report !== undefined) return { kind: 'repaired', identity, early, report: judgement.report }
  return { kind: 'accepted', identity, early }
}

/**
 * The overlay's decision for one tools instance, made once per definition object whichever way it entered DSH's
 * registry, and what every reader sees of it. A refused tool is *withheld*: its definition sits in DSH's table like
 * any registered tool (owned and disposed by its plugin, its name taken, known to `toolOrder` and `restrict()`), and
 * the read guard keeps it out of everything that shows or runs a tool. That is the same state whether the overlay
 * started before the tool registered or after, so load order changes nothing a user sees.
 *
 * Where a read guard hides withheld tools, a registration only marks its definition as awaiting: the judgement, its
 * notice and its verdict come at the first read of the tool (a request, `get()`, a call) or of the verdicts (the
 * ledger), whichever is first, so `register()` costs what stock's does. `throw` mode, and a registry the overlay cannot
 * guard, judge at register, where the answer is needed.
 */
export class ToolGate {
  /** Each definition judged: what readers see of it, or `null` when it is withheld. */
  private readonly shown = new WeakMap<object, RegisteredTool | null>()
  /**
   * Set once the start-up sweep has judged every tool registered before the overlay started: from then on, a
   * definition not judged yet came in through `atRegister`.
   */
  private swept = false
  /** Registrations since the last `settle`: when none, reading the verdicts walks nothing. */
  private awaiting = 0
  private readonly refusals: JsonSchemaError[] = []
  private readonly tools: object
  private readonly mode: JudgeOptions['mode']
  private readonly routes: RoutedBinding
  private readonly notify: NoticeSink
  private readonly ledger: VerdictLedger
  /** The registry whose read guard hides withheld tools; without one, a refused tool must not reach DSH's table. */
  private readonly registry: DshRegistry | undefined
  /** One per path that reports a validator problem its own way (see `laterProblem`). */
  private readonly laterJudge: Judge
  private readonly earlyJudge: Judge

  constructor(
    tools: object,
    options: JudgeOptions,
    routes: RoutedBinding,
    notify: NoticeSink,
    ledger: VerdictLedger,
    registry: DshRegistry | undefined,
  ) {
    this.tools = tools
    this.mode = options.mode
    this.routes = routes
    this.notify = notify
    this.ledger = ledger
    this.registry = registry
    this.laterJudge = createJudge(options, this.laterProblem)
    this.earlyJudge = createJudge(options, this.earlyProblem)
  }

  /** A registration: the definition to insert (withheld or shown as judged), or the error in `throw` mode. */
  readonly atRegister = (
    definition: RegisteredTool,
    registration: Registration,
  ): Admitted<RegisteredTool> => {
    if (this.mode !== 'throw' && this.registry !== undefined) {
      // Judged at its first read; a definition registered again is judged again, as a first registration is.
      this.shown.delete(definition)
      this.awaiting++
      return { insert: definition }
    }
    const judgement = this.judge(definition, registration, 'register')
    if (judgement.kind === 'accepted') return { insert: judgement.definition }
    if (this.mode === 'throw') return { refuse: judgement.error }
    return { skip: true }
  }

  /** A tool rebuilt from its registered definition when a transform was added or removed after it registered. */
  readonly atRebuild: Admission = (definition, origin) => {
    const judgement = this.judge(definition, origin.registration, 'rebuild')
    return judgement.kind === 'accepted' ? judgement.definition : definition
  }

  /** The read guard's filter: O(1) for a definition already judged; judges one registered since or earlier. */
  readonly filter = (definition: RegisteredTool): RegisteredTool | undefined => {
    if (typeof definition !== 'object' || definition === null) return definition
    const known = this.shown.get(definition)
    if (known !== undefined) return known ?? undefined
    // DSH's own `register` refuses such a definition, so none got in through it: leave it to DSH.
    if (!declaresCanonicalOutput(definition)) return definition
    if (this.swept)
      return this.shownAs(this.judge(definition, originOf(this.tools, definition).registration, 'register'))
    const { definition: registered, origin } = asRegistered(this.tools, definition)
    const shown = this.shownAs(this.judge(registered, origin.registration, 'early'))
    this.shown.set(definition, shown ?? null)
    return shown
  }

  /** Judges every definition registered and not read yet, before anyone reads the verdicts. */
  readonly settle = (): void => {
    if (this.awaiting === 0 || this.registry === undefined) return
    this.awaiting = 0
    for (const definition of this.registry.definitions()) this.filter(definition)
  }

  /** Judges every tool already registered; in `throw` mode, fails the overlay (and so the profile) on a bad one. */
  sweep(registry: DshRegistry): void {
    for (const definition of registry.definitions()) this.filter(definition)
    this.swept = true
    const [first, ...more] = this.refusals
    if (this.mode !== 'throw' || first === undefined) return
    if (more.length === 0) throw first
    throw new AggregateError(this.refusals, this.refusals.map((error) => error.message).join('\n'))
  }

  /**
   * Told when a tool's validator is compiled, at its first validated call, so always after its verdict, which the
   * problem then replaces in the ledger (`judgeTool` compiles nothing). One per gate and path, not one per tool: a
   * contract keeps its callback for as long as its tool is registered.
   */
  private readonly laterProblem = (problem: ValidatorProblem): void => this.validatorProblem(problem, false)
  private readonly earlyProblem = (problem: ValidatorProblem): void => this.validatorProblem(problem, true)

  private shownAs(judgement: Judgement<RegisteredTool>): RegisteredTool | undefined {
    return judgement.kind === 'accepted' ? judgement.definition : undefined
  }

  private judge(
    definition: RegisteredTool,
    registration: Registration,
    path: Path,
  ): Judgement<RegisteredTool> {
    const early = path === 'early'
    const judgement = judgeTool(definition, registration, early ? this.earlyJudge : this.laterJudge)
    if (judgement.kind === 'refused') {
      this.shown.set(definition, null)
      if (early) this.refusals.push(judgement.error)
    } else {
      // What readers see: the definition itself, or its repaired copy; an entry registered before the overlay started
      // is keyed as it sits in DSH's table, by the caller.
      this.shown.set(definition, judgement.definition)
      this.shown.set(judgement.definition, judgement.definition)
      this.routes.remember(judgement.definition, judgement.contract)
    }
    this.ledger.record(verdictOf(judgement, early))
    const row = registration.row
    this.tell(judgement, path, row === undefined ? undefined : packageOfSpecifier(row))
    return judgement
  }

  /** A tool whose schema ajv cannot compile: registered, its arguments checked by DSH's validator instead. */
  private validatorProblem(problem: ValidatorProblem, early: boolean): void {
    this.ledger.record({ kind: 'fallback-validator', identity: problem.identity, early, problem })
    this.notify(validatorProblemNotice(problem, early))
  }

  /** The notice for a judgement, naming the package the user installed the plugin from when it is known. */
  private tell(judgement: Judgement<RegisteredTool>, path: Path, packageName: string | undefined): void {
    const early = path === 'early'
    if (judgement.kind === 'refused') {
      // In `throw` mode a registration or the sweep throws the error itself; only a rebuild has no one to throw to.
      if (this.mode !== 'throw' || path === 'rebuild')
        this.notify(refusalNotice(judgement.error, early, packageName))
      return
    }
    if (judgement.report !== undefined) this.notify(repairNotice(judgement.report, early, packageName))
  }
}
