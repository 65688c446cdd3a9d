import { defineConfig } from 'vitest/config'

// These tests build, pack and install the whole workspace: one file at a time, or two would compile it at once.
export default defineConfig({
  test: { fileParallelism: false, testTimeout: 600_000, hookTimeout: 900_000 },
})
