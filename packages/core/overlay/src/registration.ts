// Only until `route-projection.ts` moves into `route/` and imports `RoutedBinding` from `../gate/tool-gate.ts`.
export type { RoutedBinding } from './gate/tool-gate.ts'
