import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { setupFiles: ['../../../scripts/fast-check-seed.ts'] },
})
