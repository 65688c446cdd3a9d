export { isBlindSchema } from './blind.ts'
export {
  checkLayout,
  checkPage,
  chromiumMissing,
  LAYOUT_VIEWPORT,
  type LayoutCheck,
  type PageCheck,
  type ScrolledTable,
} from './browser.ts'
export { type CollectOptions, collectListings, reduceEnvironment, type ServerListing } from './collect.ts'
export { type JsonDifference, jsonDifferences, jsonEqual } from './diff.ts'
export { JUDGES, type Judge, type JudgeOutcome, judgesFor } from './judges/index.ts'
export { contractSamples, type Meaning, type MeaningLoss, measureMeaning } from './meaning.ts'
export { renderPage } from './page.ts'
export { markdownAsRead, readmeTotals, TOTALS_END, TOTALS_START, withTotals } from './readme-totals.ts'
export { RESULTS, type WrittenReport, writeReport, writeResults } from './report-files.ts'
export { SAMPLE_MODES, type SampleMode, sampleArguments, validSamples } from './samples.ts'
export { compatServers, compatServersById, DUMMY_CREDENTIAL } from './servers.ts'
export { type CompatSummary, summaryOf } from './summary.ts'
export {
  buildReport,
  type Cell,
  type CompatReport,
  type JudgeResult,
  type ProfileTotals,
  type ServerReport,
  type ToolReport,
  totalsOf,
} from './table.ts'
export { totalsMarkdown } from './totals.ts'
export type { After, AfterVerdict, Before, BeforeVerdict } from './verdicts.ts'
export { encode, wireValidator } from './wire-answer.ts'
