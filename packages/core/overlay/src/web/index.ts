import * as ToolContractsWeb from './plugin.ts'

export { type ContractsRouteSource, contractsRoute } from './contracts-route.ts'
export { contractRow, contractsView, VIEW_LIMITS, type ViewLimits } from './contracts-view.ts'
export { apply, inject, name, type WebServerFace } from './plugin.ts'
export {
  CONTRACTS_PATH,
  type ContractFinding,
  type ContractRow,
  type ContractsView,
  VERDICT_KINDS,
  type VerdictKind,
} from './wire.ts'

/** The module is itself a cordis plugin, so a DSH profile row can name `@dsh-harden/overlay/web`. */
export default ToolContractsWeb
