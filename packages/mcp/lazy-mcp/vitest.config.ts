import { defineConfig } from 'vitest/config'

export default defineConfig({
  // These tests start real server processes; a loaded machine makes them slower, never wrong. What they wait for
  // is bounded by polls ("eventually, or fail"), and the test bound only has to be above any of those.
  test: { setupFiles: ['../../../scripts/fast-check-seed.ts'], testTimeout: 120_000 },
})
