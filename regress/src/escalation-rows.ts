import {
  type EscalationCall,
  type EscalationScenarioOptions,
  type EscalationScenarioResult,
  runEscalationScenario,
} from './escalation-scenario.ts'
import type { CaseRow, RunResult } from './run-case.ts'

/**
 * #1149 as report rows: DSH's real bash, write and pwsh tools on the real agent loop over a real confining backend
 * (Landlock here) and the real approval service, stock against `@dsh-harden/tool-bash`, `-tool-fs`, `-tool-pwsh`.
 * Placeholder rows are fixed when stock fails and hardened runs the call in its current mode without asking the user;
 * control rows are fixed when a genuine escalation still asks (or is still refused under `never`) exactly as stock.
 */
const WRITE_F = 'echo hi > f.txt && cat f.txt'
const REASON = 'need to write f.txt in the workspace'
const MATERIALIZED = { sandbox_permissions: 'workspace-write', justification: '' }
const bash = (extra: Record<string, unknown> = {}, command = WRITE_F): EscalationCall => ({
  tool: 'bash',
  arguments: { command, description: 'Write f.txt', ...extra },
})
const tokenIn = (seen: readonly string[]) =>
  seen.map((text) => /escalation_token (esc_[A-Za-z0-9_-]+)/.exec(text)?.[1]).findLast((t) => t !== undefined)
const retryWithToken = (command = WRITE_F): EscalationCall => ({
  tool: 'bash',
  arguments: (seen) => ({
    command,
    description: 'Write f.txt',
    sandbox_permissions: 'workspace-write',
    justification: REASON,
    escalation_token: tokenIn(seen) ?? null,
  }),
})

interface EscalationCase {
  readonly id: string
  readonly source: string
  readonly run: Omit<EscalationScenarioOptions, 'hardened'>
  readonly fixedWhen: (stock: EscalationScenarioResult, hardened: EscalationScenarioResult) => boolean
}

const ranQuietly = (r: EscalationScenarioResult) => r.calls.every((c) => c.ok) && r.userAsked.length === 0
const first = (r: EscalationScenarioResult) => r.calls[0]
const stockFailed = (r: EscalationScenarioResult) => first(r)?.ok === false

export const ESCALATION_CASES: readonly EscalationCase[] = [
  {
    id: 'bash-materialized-ww-1149',
    source: 'DSH #1149 bash, effective workspace-write',
    run: { mode: 'workspace-write', approval: 'ask', steps: [[bash(MATERIALIZED)]] },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h) && h.files['f.txt'] === 'hi\n',
  },
  {
    id: 'bash-materialized-dfa-1149',
    source: 'DSH #1149 bash, effective danger-full-access',
    run: { mode: 'danger-full-access', approval: 'ask', steps: [[bash(MATERIALIZED)]] },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h) && h.files['f.txt'] === 'hi\n',
  },
  {
    id: 'write-materialized-ww-1149',
    source: 'DSH #1149 write, effective workspace-write',
    run: {
      mode: 'workspace-write',
      approval: 'ask',
      steps: [[{ tool: 'write', arguments: { file_path: 'g.txt', content: 'x', ...MATERIALIZED } }]],
    },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h) && h.files['g.txt'] === 'x',
  },
  {
    id: 'bash-null-fields-1149',
    source: 'DSH #1149 nullable route, bash',
    run: {
      mode: 'read-only',
      approval: 'ask',
      steps: [[bash({ sandbox_permissions: null, justification: null }, 'ls -a')]],
    },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h),
  },
  {
    id: 'write-null-fields-1149',
    source: 'DSH #1149 nullable route, write',
    run: {
      mode: 'workspace-write',
      approval: 'ask',
      steps: [
        [
          {
            tool: 'write',
            arguments: { file_path: 'g.txt', content: 'x', sandbox_permissions: null, justification: null },
          },
        ],
      ],
    },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h) && h.files['g.txt'] === 'x',
  },
  {
    id: 'bash-lone-empty-justification',
    source: 'DSH #1149 justification:"" alone',
    run: { mode: 'read-only', approval: 'ask', steps: [[bash({ justification: '' }, 'ls -a')]] },
    fixedWhen: (s, h) => stockFailed(s) && ranQuietly(h),
  },
  {
    id: 'pwsh-materialized-ww-1149',
    source: 'DSH #1149 pwsh (pwsh not installed: up to the executor)',
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
    // Hardened passes DSH's escalation validation and reaches the executor, which cannot start pwsh on this host.
    fixedWhen: (s, h) =>
      first(s)?.result === 'Error: invalid justification: expected a non-empty sentence' &&
      h.userAsked.length === 0 &&
      /^Error: sandbox mode "workspace-write" is requested/.test(first(h)?.result ?? '') &&
      !/invalid justification|invalid escalation|not strictly wider/.test(first(h)?.result ?? ''),
  },
  {
    id: 'bash-wider-still-asks',
    source: 'control: read-only → workspace-write with a justification',
    run: {
      mode: 'read-only',
      approval: 'ask',
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON })]],
    },
    fixedWhen: (s, h) =>
      [s, h].every((r) => first(r)?.ok === true && r.userAsked.length === 1 && r.files['f.txt'] === 'hi\n'),
  },
  {
    id: 'bash-wider-never-refused',
    source: 'control: approval policy never',
    run: {
      mode: 'read-only',
      approval: 'never',
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON })]],
    },
    fixedWhen: (s, h) =>
      [s, h].every(
        (r) =>
          first(r)?.result === 'Error: the user rejected escalating this command to "workspace-write"' &&
          r.userAsked.length === 0 &&
          r.files['f.txt'] === undefined,
      ),
  },
  {
    id: 'bash-wider-empty-justification',
    source: 'DSH #1149 wider request, justification:""',
    run: {
      mode: 'workspace-write',
      approval: 'ask',
      steps: [[bash({ sandbox_permissions: 'danger-full-access', justification: '' })]],
    },
    fixedWhen: (s, h) =>
      stockFailed(s) &&
      first(h)?.ok === false &&
      /omit sandbox_permissions and justification \(or send null for both\)/.test(first(h)?.result ?? '') &&
      h.userAsked.length === 0 &&
      h.files['f.txt'] === undefined,
  },
  {
    id: 'denial-bound-speculative',
    source: 'seed 002 §8: escalation without a denial (denialBound)',
    run: {
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true },
      steps: [[bash({ sandbox_permissions: 'workspace-write', justification: REASON })]],
    },
    fixedWhen: (s, h) =>
      s.userAsked.length === 1 && h.userAsked.length === 0 && h.files['f.txt'] === undefined,
  },
  {
    id: 'denial-bound-retry',
    source: 'seed 002 §8: the exact retry of a denied call (denialBound)',
    run: {
      mode: 'read-only',
      approval: 'ask',
      escalation: { denialBound: true },
      steps: [[bash()], [retryWithToken()]],
    },
    fixedWhen: (_s, h) => h.userAsked.length === 1 && h.calls[1]?.ok === true && h.files['f.txt'] === 'hi\n',
  },
  {
    id: 'denial-bound-token-misuse',
    source: 'seed 002 §8: reuse, parallel, other command (denialBound)',
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
    // Of the two parallel retries, one may ask; the other, the other command and the reuse are ignored.
    fixedWhen: (_s, h) => h.userAsked.length === 1 && h.files['other.txt'] === undefined,
  },
]

function clip(text: string, length = 200): string {
  const flat = text.replaceAll(/\s+/g, ' ')
  return flat.length > length ? `${flat.slice(0, length - 3)}...` : flat
}

function outcomeOf(run: EscalationScenarioResult): RunResult {
  const asked = run.userAsked.length
  const failed = run.calls.find((c) => !c.ok)
  const last = failed ?? run.calls.at(-1)
  const detail = clip(`${asked} approval prompt${asked === 1 ? '' : 's'}; ${last?.result ?? 'no call'}`)
  if (run.errors.length > 0) return { outcome: 'call-fails', detail: clip(run.errors.join('; ')) }
  if (failed !== undefined && /rejected escalating/.test(failed.result))
    return { outcome: 'call-refused', detail }
  if (asked > 0) return { outcome: 'call-asks-approval', detail }
  return { outcome: failed === undefined ? 'call-works' : 'call-fails', detail }
}

export async function escalationRows(): Promise<CaseRow[]> {
  const rows: CaseRow[] = []
  for (const testCase of ESCALATION_CASES) {
    const stock = await runEscalationScenario({ ...testCase.run, hardened: false })
    const hardened = await runEscalationScenario({ ...testCase.run, hardened: true })
    rows.push({
      id: testCase.id,
      source: testCase.source,
      stock: outcomeOf(stock),
      hardened: outcomeOf(hardened),
      fixed: stock.errors.length === 0 && hardened.errors.length === 0 && testCase.fixedWhen(stock, hardened),
    })
  }
  return rows
}
