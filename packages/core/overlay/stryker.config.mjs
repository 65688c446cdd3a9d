// Mutation testing for the overlay's route, rename and registration code (`pnpm mutate` at the root; not part of
// `npm test`: too slow). The sandbox sits three levels below the repo root, as this package does, so the tsconfig's
// `../../../` paths resolve there as here. Everything Stryker writes goes to the git-ignored `.stryker/` at the root.
const out = '../../../.stryker/overlay'

// Property tests draw from one fixed seed (`scripts/fast-check-seed.ts` reads CI, FC_SEED picks another), so a
// mutant's verdict and the initial run never depend on the draw.
process.env.CI ??= 'true'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // This package has no vitest config file: vitest's defaults, including its `forks` pool (the runner's default,
  // worker threads, has a larger stack and so changes what deep schemas do).
  vitest: { pool: 'forks' },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  mutate: [
    'src/route/route-projection.ts',
    'src/gate/register-door.ts',
    'src/gate/judge.ts',
    'src/gate/bare-guard.ts',
    'src/gate/tool-gate.ts',
    'src/route/declared-calls.ts',
  ],
  ignorePatterns: ['dist', 'client/dist'],
  // Stryker rewrites a tsconfig's `extends` for a sandbox two levels deeper than the package; ours keeps the depth,
  // so the rewrite would break it: point the rewriter at no file.
  tsconfigFile: 'no-tsconfig-rewrite',
  // A static mutant (a module-level table or constant) reruns the whole suite in a fresh process (minutes each on
  // two shared cores); they are listed as ignored in the report instead.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  tempDirName: '../../../.stryker/overlay-sandbox',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${out}/mutation.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  // Other engineers share the machine's two cores: a slow mutant run is load, not an infinite loop.
  timeoutMS: 20000,
}
