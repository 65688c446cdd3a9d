import { execFileSync } from 'node:child_process'
import {
  type EscalationCall,
  type EscalationScenarioOptions,
  type EscalationScenarioResult,
  runEscalationScenario,
} from './escalation-scenario.ts'
import type { GroupContext } from './group.ts'
import { count } from './plural.ts'
import type { Check, Observed, Row, RowKind } from './row.ts'

/**
 * #1149 as report rows: DSH's real bash, write, edit and pwsh tools on the real agent loop over a real confining
 * backend (Landlock here) and the real approval service (`escalation-scenario.ts`), stock against
 * `@dsh-harden/tool-bash`, `-tool-fs`, `-tool-pwsh`. Each case judges both legs with one predicate on what was
 * observed: the files in the workspace, the approval prompts that reached the user, the results the model saw.
 */
const GROUP = 'escalation-1149'
const WRITE_F = 'echo hi > f.txt && cat f.txt'
const REASON = 'need to write f.txt in the workspace'
const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }
const NULLS = { sandbox_permissions: null, justification: null }
const LS = 'ls -a'
/** Prints a marker before the write, so the result shows that the command ran even where the write is denied. */
const RAN_MARKER = 'command-started'
const RAN_THEN_WRITE_F = `echo ${RAN_MARKER}; ${WRITE_F}`
const bash = (extra: Record<string, unknown> = {}, command = WRITE_F): EscalationCall => ({
  tool: 'bash',
  arguments: { command, description: command === LS ? 'List files' : 'Write f.txt', ...extra },
})
const write = (extra: Record<string, unknown>): EscalationCall => ({
  tool: 'write',
  arguments: { file_path: 'g.txt', content: 'x', ...extra },
})
const EDIT_FILES = { 'h.txt': 'old line\n' }
const edit = (extra: Record<string, unknown>): EscalationCall => ({
  tool: 'edit',
  arguments: { file_path: 'h.txt', old_string: 'old', new_string: 'new', ...extra },
})
const tokenIn = (seen: readonly string[]) =>
  seen.map((text) => /escalation_token (esc_[A-Za-z0-9_-]+)/.exec(text)?.[1]).findLast((t) => t !== undefined)
/** The retry of a denied call; it quotes the escalation token only when a result carried one (stock never does). */
const retryWithToken = (command = WRITE_F): EscalationCall => ({
  tool: 'bash',
  arguments: (seen) => {
    const token = tokenIn(seen)
    return {
      command,
      description: 'Write f.txt',
      sandbox_permissions: 'workspace-write',
      justification: REASON,
      ...(token === undefined ? {} : { escalation_token: token }),
    }
  },
})

export interface EscalationCase {
  readonly id: string
  readonly kind: RowKind
  readonly source: string
  readonly proves: string
  readonly run: Omit<EscalationScenarioOptions, 'hardened'>
  /** What a user wants from this turn, judged on either leg alone. */
  readonly works: (run: EscalationScenarioResult) => boolean
  readonly checks?: (stock: EscalationScenarioResult, hardened: EscalationScenarioResult) => Check[]
}

const first = (r: EscalationScenarioResult) => r.calls[0]
/** Whether the call's command ran: its result (what the model saw) carries the marker the command printed first. */
const ran = (call: EscalationScenarioResult['calls'][number] | undefined) =>
  call?.result.includes(RAN_MARKER) === true
const ranQuietly = (r: EscalationScenarioResult) =>
  r.calls.length > 0 && r.calls.every((c) => c.ok) && r.userAsked.length === 0

export const ESCALATION_CASES: readonly EscalationCase[] = [
  {
    id: 'bash-materialized-ww-1149',
    kind: 'fix',
    source: 'DSH #1149 bash, effective workspace-write',
    proves:
      'bash with materialized escalation fields (workspace-write, justification "") in its own mode runs without asking',
    run: { mode: 'workspace-write', approval: 'ask', steps: [[bash(MATERIALIZED)]] },
    works: (r) => ranQuietly(r) && r.files['f.txt'] === 'hi\n',
  },
  {
    id: 'bash-materialized-dfa-1149',
    kind: 'fix',
    source: 'DSH #1149 bash, effective danger-full-access',
    proves: 'the same materialized fields under danger-full-access run without asking',
    run: { mode: 'danger-full-access', approval: 'ask', steps: [[bash(MATERIALIZED)]] },
    works: (r) => ranQuietly(r) && r.files['f.txt'] === 'hi\n',
  },
  {
    id: 'write-materialized-ww-1149',
    kind: 'fix',
    source: 'DSH #1149 write, effective workspace-write',
    proves: 'write with materialized escalation fields in its own mode writes the file without asking',
    run: { mode: 'workspace-write', approval: 'ask', steps: [[write(MATERIALIZED)]] },
    works: (r) => ranQuietly(r) && r.files['g.txt'] === 'x',
  },
  {
    id: 'edit-materialized-ww-1149',
    kind: 'fix',
    source: 'DSH #1149 edit, effective workspace-write',
    proves: 'edit with materialized escalation fields in its own mode edits the file without asking',
    run: { mode: 'workspace-write', approval: 'ask', files: EDIT_FILES, steps: [[edit(MATERIALIZED)]] },
    works: (r) => ranQuietly(r) && r.files['h.txt'] === 'new line\n',
  },
  {
    id: 'bash-null-fields-1149',
    kind: 'fix',
    source: 'DSH #1149 nullable route, bash',
    proves: 'bash with `null` escalation fields (what nullable routes send for "absent") runs without asking',
    run: { mode: 'read-only', approval: 'ask', steps: [[bash(NULLS, LS)]] },
    works: ranQuietly,
  },
  {
    id: 'write-null-fields-1149',
    kind: 'fix',
    source: 'DSH #1149 nullable route, write',
    proves: 'write with `null` escalation fields writes the file without asking',
    run: { mode: 'workspace-write', approval: 'ask', steps: [[write(NULLS)]] },
    works: (r) => ranQuietly(r) && r.files['g.txt'] === 'x',
  },
  {
    id: 'edit-null-fields-1149',
    kind: 'fix',
    source: 'DSH #1149 nullable route, edit',
    proves: 'edit with `null` escalation fields edits the file without asking',
    run: { mode: 'workspace-write', approval: 'ask', files: EDIT_FILES, steps: [[edit(NULLS)]] },
    works: (r) => ranQuietly(r) && r.files['h.txt'] === 'new line\n',
  },
  {
    id: 'bash-lone-empty-justification',
    kind: 'fix',
    source: 'DSH #1149 justification:"" alone',
    proves: 'bash with only `justification: ""` (no escalation asked) runs without asking',
    run: { mode: 'read-only', approval: 'ask', steps: [[bash({ justification: '' }, LS)]] },
    works: ranQuietly,
  },
  {
    id: 'pwsh-materialized-ww-1149',
    kind: 'fix',
    source: 'DSH #1149 pwsh, effective workspace-write',
    proves: 'pwsh with materialized escalation fields in its own mode runs without asking',
    run: {
      mode: 'workspace-write',
      approval: 'ask',
      pwsh: true,
      steps: [
        [
          {
            tool: 'pwsh',
            arguments: { command: 'Get-ChildItem', description: 'List files', ...MATERIALIZED },
          },
        ],
      ],
    },
    works: ranQuietly,
  },
  {
    id: 'bash-wider-still-asks',
    kind: 'guard',
    source: 'control: read-only → workspace-write with a justification',
    proves:
      'a genuine wider request (read-only → workspace-write, with a reason) still asks the user once, then runs',
    run: {
      mode: 'read-only',
      approval: 'ask',
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON })]],
    },
    works: (r) => first(r)?.ok === true && r.userAsked.length === 1 && r.files['f.txt'] === 'hi\n',
  },
  {
    id: 'bash-wider-never-refused',
    kind: 'guard',
    source: 'control: approval policy never',
    proves:
      'under approval policy `never` a wider request is still refused without asking and without running',
    run: {
      mode: 'read-only',
      approval: 'never',
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON })]],
    },
    works: (r) =>
      first(r)?.result === 'Error: the user rejected escalating this command to "workspace-write"' &&
      r.userAsked.length === 0 &&
      r.files['f.txt'] === undefined,
  },
  {
    id: 'bash-wider-empty-justification',
    kind: 'guard',
    source: 'DSH #1149 wider request, justification:""',
    proves:
      'a wider request with an empty justification is still refused without asking and without running; hardened also says how to fix the call',
    run: {
      mode: 'workspace-write',
      approval: 'ask',
      steps: [[bash({ sandbox_permissions: 'danger-full-access', justification: '' })]],
    },
    works: (r) => first(r)?.ok === false && r.userAsked.length === 0 && r.files['f.txt'] === undefined,
    checks: (_s, h) => [
      {
        what: 'the hardened refusal tells the model to omit both fields or send null for both',
        ok: /omit sandbox_permissions and justification \(or send null for both\)/.test(
          first(h)?.result ?? '',
        ),
      },
    ],
  },
  {
    id: 'denial-bound-speculative',
    kind: 'fix',
    source: 'seed 002 §8: escalation without a denial (denialBound)',
    proves:
      'with `denialBound`, an escalation the sandbox never denied does not reach the user and the command runs in its own mode',
    run: {
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true },
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON }, RAN_THEN_WRITE_F)]],
    },
    // The command ran (its first echo reached the model) in its own, read-only mode (the write did not happen), and
    // nobody was asked.
    works: (r) =>
      r.calls.length === 1 && ran(first(r)) && r.userAsked.length === 0 && r.files['f.txt'] === undefined,
  },
  {
    id: 'denial-bound-retry',
    kind: 'guard',
    source: 'seed 002 §8: the exact retry of a denied call (denialBound)',
    proves:
      'with `denialBound`, retrying a call the sandbox denied still asks the user once and then runs (stock: the same retry without a token)',
    run: {
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true },
      steps: [[bash()], [retryWithToken()]],
    },
    works: (r) => r.userAsked.length === 1 && r.calls[1]?.ok === true && r.files['f.txt'] === 'hi\n',
  },
  {
    id: 'denial-bound-token-misuse',
    kind: 'fix',
    source: 'seed 002 §8: reuse, parallel, other command (denialBound)',
    proves:
      'with `denialBound`, one denial buys exactly one prompt: one of two parallel retries asks and runs; the other, a reused token and another command do not ask again and do not run',
    run: {
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true },
      steps: [
        [bash()],
        [retryWithToken(), retryWithToken()],
        [retryWithToken('echo x > other.txt')],
        [retryWithToken()],
      ],
    },
    // Exactly the one prompt the denial bought: one of the two parallel retries asks and runs; the other, the other
    // command and the reuse do not ask and do not run.
    works: (r) =>
      r.calls.length === 5 &&
      r.userAsked.length === 1 &&
      r.files['f.txt'] === 'hi\n' &&
      r.files['other.txt'] === undefined,
  },
]

export function observedLeg(run: EscalationScenarioResult, works: boolean): Observed {
  const asked = run.userAsked.length
  const failed = run.calls.find((c) => !c.ok)
  const calls = run.calls.map((c) => `${c.tool} ${c.argumentsSent} → ${c.ok ? 'ok' : 'error'}: ${c.result}`)
  const files = Object.keys(run.files).sort()
  const detail = [
    count(asked, 'approval prompt'),
    ...(run.calls.length === 0 ? ['no call reached a tool'] : calls),
    `workspace: ${files.length === 0 ? 'empty' : files.join(', ')}`,
    ...run.errors.map((error) => `scenario error: ${error}`),
  ].join('\n')
  const outcome =
    run.errors.length > 0 || run.calls.length === 0
      ? 'scenario-fails'
      : failed !== undefined && /rejected escalating/.test(failed.result)
        ? 'call-refused'
        : asked > 0
          ? 'call-asks-approval'
          : failed === undefined
            ? 'call-works'
            : 'call-fails'
  return { outcome, works: works && run.errors.length === 0, detail }
}

export function escalationRow(
  testCase: EscalationCase,
  stock: EscalationScenarioResult,
  hardened: EscalationScenarioResult,
): Row {
  return {
    id: testCase.id,
    group: GROUP,
    kind: testCase.kind,
    proves: testCase.proves,
    source: testCase.source,
    stock: observedLeg(stock, testCase.works(stock)),
    hardened: observedLeg(hardened, testCase.works(hardened)),
    checks: testCase.checks?.(stock, hardened),
  }
}

/** pwsh is not part of this image; the pwsh row runs only where it is installed (DSH's executor needs it). */
export function pwshInstalled(): boolean {
  try {
    execFileSync('pwsh', ['-NoLogo', '-NoProfile', '-Command', 'exit 0'], {
      stdio: 'ignore',
      timeout: 20_000,
    })
    return true
  } catch {
    return false
  }
}

export async function run(context: GroupContext): Promise<Row[]> {
  const withPwsh = pwshInstalled()
  if (!withPwsh)
    context.note(
      'escalation-1149: pwsh is not installed here, so pwsh-materialized-ww-1149 did not run (a call that fails at the executor proves nothing); @dsh-harden/tool-pwsh has its own tests',
    )
  const rows: Row[] = []
  for (const testCase of ESCALATION_CASES) {
    if (testCase.run.pwsh === true && !withPwsh) continue
    const stock = await runEscalationScenario({ ...testCase.run, hardened: false })
    const hardened = await runEscalationScenario({ ...testCase.run, hardened: true })
    rows.push(escalationRow(testCase, stock, hardened))
  }
  return rows
}
