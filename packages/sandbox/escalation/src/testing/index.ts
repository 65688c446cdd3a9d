// Test helpers for the tool packages (`@dsh-harden/tool-bash`, `-tool-pwsh`, `-tool-fs`): dev-only, not published.
export { type ComposedShell, composeShell, type DshShellTool } from './compose-shell.ts'
export {
  APPROVALS,
  checkCall,
  checkEveryRequest,
  checkRandomValues,
  type EscalationMatrix,
  escalationArgs,
  REQUESTED,
  type RunBoth,
} from './invariants.ts'
export {
  type ApprovalSetting,
  type Outcome,
  type RecordingServices,
  type RecordingState,
  recordingServices,
} from './recording.ts'
