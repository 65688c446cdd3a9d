import { defineConfig } from 'vitest/config'

// The table test starts real MCP servers and a real Chromium: one file at a time on this shared machine.
export default defineConfig({
  test: { setupFiles: ['../scripts/fast-check-seed.ts'], fileParallelism: false, testTimeout: 120_000 },
})
