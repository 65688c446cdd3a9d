export { canCollectGarbage, collectGarbage } from './gc.ts'
export {
  type Comparison,
  type ComparisonResult,
  compare,
  type Side,
  type SideResult,
  type Trial,
} from './harness.ts'
export { formatTables } from './report.ts'
export { quantile, type Spread, spread } from './stats.ts'
