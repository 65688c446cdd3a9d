import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // A test's time limit is a hang detector, not a speed check: far above its quiet-machine time, so a busy machine
    // never fails it (speed is measured in bench/, as ratios).
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
})
