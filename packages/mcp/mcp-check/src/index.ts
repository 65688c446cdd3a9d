export {
  type CallMode,
  type CallPolicy,
  DEFAULT_CALL_POLICY,
  type PlannedCall,
  planCalls,
  type SkippedCall,
  synthesizeArguments,
  UNKNOWN_TOOL,
} from './calls.ts'
export { type CheckOptions, type CheckReport, checkServer } from './check.ts'
export { findClaude, parseClaudeGet } from './clients/claude-code.ts'
export { type ProfileVerdict, profileVerdicts, type ToolRejection } from './clients/profiles.ts'
export type { ClientVerdict } from './clients/verdict.ts'
export {
  CHECK_IDS,
  CHECK_TITLES,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  type Finding,
  type Severity,
} from './findings.ts'
export type { CallRecord } from './protocol.ts'
export { renderReport } from './render.ts'
export { type CheckTarget, describeTarget } from './target.ts'
export {
  CONFORMANCE_PACKAGE,
  type ConformanceCheck,
  type ConformanceRun,
  type ConformanceSuite,
  describeConformanceRun,
  findConformanceSuite,
  runConformanceSuite,
} from './wire/conformance.ts'
export { forEachLine } from './wire/lines.ts'
