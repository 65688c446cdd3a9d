import type { JsonSchemaError, ValidatorProblem } from '@dsh-harden/tools'
import type { Admission } from './admission.ts'
import { asRegistered } from './definition-transforms.ts'
import type { DshRegistry } from './dsh-registry.ts'
import { type NoticeSink, refusalNotice, repairNotice, validatorProblemNotice } from './notices.ts'
import { packageOfSpecifier } from './plugin-package.ts'
import type { Registration } from './registrant.ts'
import {
  type Admitted,
  createJudge,
  declaresCanonicalOutput,
  type Judge,
  type Judgement,
  type JudgeOptions,
  judgeTool,
  type RegisteredTool,
} from './registration.ts'
import type { ToolVerdict, VerdictLedger } from './verdicts.ts'

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
 */
export class ToolGate {
  /** Each judged definition: what readers see of it, or `null` when it is withheld. */
  private readonly shown = new WeakMap<object, RegisteredTool | null>()
  private readonly refusals: JsonSchemaError[] = []
  private readonly tools: object
  private readonly options: JudgeOptions
  private readonly notify: NoticeSink
  private readonly ledger: VerdictLedger
  /** Whether a read guard hides withheld tools; without one, a refused tool must not reach DSH's table at all. */
  private readonly withholds: boolean
  /** One per path that reports a validator problem its own way (see `laterProblem`). */
  private readonly laterJudge: Judge
  private readonly earlyJudge: Judge

  constructor(
    tools: object,
    options: JudgeOptions,
    notify: NoticeSink,
    ledger: VerdictLedger,
    withholds: boolean,
  ) {
    this.tools = tools
    this.options = options
    this.notify = notify
    this.ledger = ledger
    this.withholds = withholds
    this.laterJudge = createJudge(options, this.laterProblem)
    this.earlyJudge = createJudge(options, this.earlyProblem)
  }

  /** A registration: the definition to insert (bound, or withheld as it is), or the error in `throw` mode. */
  readonly atRegister = (
    definition: RegisteredTool,
    registration: Registration,
  ): Admitted<RegisteredTool> => {
    const judgement = this.judge(definition, registration, 'register')
    if (judgement.kind === 'accepted') return { insert: judgement.definition }
    if (this.options.mode === 'throw') return { refuse: judgement.error }
    return this.withholds ? { insert: definition } : { skip: true }
  }

  /** A tool rebuilt from its registered definition when a transform was added or removed after it registered. */
  readonly atRebuild: Admission = (definition, origin) => {
    const judgement = this.judge(definition, origin.registration, 'rebuild')
    return judgement.kind === 'accepted' ? judgement.definition : definition
  }

  /** The read guard's filter: O(1) for a definition already judged; one judged lazily is one registered earlier. */
  readonly filter = (definition: RegisteredTool): RegisteredTool | undefined => {
    if (typeof definition !== 'object' || definition === null) return definition
    const known = this.shown.get(definition)
    if (known !== undefined) return known ?? undefined
    // DSH's own `register` refuses such a definition, so none got in through it: leave it to DSH.
    if (!declaresCanonicalOutput(definition)) return definition
    const { definition: registered, origin } = asRegistered(this.tools, definition)
    const judgement = this.judge(registered, origin.registration, 'early')
    const shown = judgement.kind === 'accepted' ? judgement.definition : undefined
    this.shown.set(definition, shown ?? null)
    return shown
  }

  /** Judges every tool already registered; in `throw` mode, fails the overlay (and so the profile) on a bad one. */
  sweep(registry: DshRegistry): void {
    for (const definition of registry.definitions()) this.filter(definition)
    const [first, ...more] = this.refusals
    if (this.options.mode !== 'throw' || first === undefined) return
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
      // What DSH's table holds: the bound definition, except for a tool registered before the overlay started, whose
      // entry stays the one it registered and is shown bound.
      if (early) this.shown.set(definition, judgement.definition)
      this.shown.set(judgement.definition, judgement.definition)
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
      if (this.options.mode !== 'throw' || path === 'rebuild')
        this.notify(refusalNotice(judgement.error, early, packageName))
      return
    }
    if (judgement.report !== undefined) this.notify(repairNotice(judgement.report, early, packageName))
  }
}
