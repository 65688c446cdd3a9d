// Mutation testing for the contract compiler (`pnpm mutate` at the root; not part of `npm test`: too slow).
// The sandbox sits three levels below the repo root, as this package does, so the vitest config's and tsconfig's
// `../../../` paths resolve there as here. Everything Stryker writes goes to the git-ignored `.stryker/` at the root.
const out = '../../../.stryker/tools'

// Property tests draw from one fixed seed (`scripts/fast-check-seed.ts` reads CI, FC_SEED picks another), so a
// mutant's verdict and the initial run never depend on the draw.
process.env.CI ??= 'true'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The runner defaults to worker threads, whose larger stack changes what ajv can compile; vitest runs forks.
  vitest: { configFile: 'vitest.config.ts', pool: 'forks' },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // The MCP boundary's repairs moved beside the one repairer both paths use (`one-meaning-repairs.ts`, `union-root.ts`).
  mutate: [
    'src/contract/**/*.ts',
    'src/read/**/*.ts',
    'src/validate/**/*.ts',
    'src/projection/**/*.ts',
    'src/mcp/**/*.ts',
    'src/repair/one-meaning-repairs.ts',
    'src/repair/union-root.ts',
  ],
  ignorePatterns: ['dist'],
  // Stryker rewrites a tsconfig's `extends` for a sandbox two levels deeper than the package; ours keeps the depth,
  // so the rewrite would break it: point the rewriter at no file.
  tsconfigFile: 'no-tsconfig-rewrite',
  // A static mutant (a module-level table or constant) reruns the whole suite in a fresh process (minutes each on
  // two shared cores); they are listed as ignored in the report instead.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  tempDirName: '../../../.stryker/tools-sandbox',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${out}/mutation.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  // Other engineers share the machine's two cores: a slow mutant run is load, not an infinite loop.
  timeoutMS: 20000,
}
