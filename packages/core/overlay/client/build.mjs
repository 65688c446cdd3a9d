// Builds the overlay's browser half into the one artifact DSH rc.8's web shell loads: a classic script that hands its
// factory to `window.__ModuleLoader__.load({ id, factory })` and asks the shell's module table (the factory's
// `require`) for React. The same artifact shape rc.8's own client packages ship (`packages/client/tsdown.client.ts`,
// `clientConfig`: CJS in a factory closure, shell modules external, everything else inlined). `build` runs it; a
// test builds into a temp file (`buildClient(file)`), never into the checkout.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'

const here = dirname(fileURLToPath(import.meta.url))
const { name } = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8'))

/** Where `exports["./client"]` points. */
export const CLIENT_BUNDLE = join(here, 'dist', 'client.js')

/** The modules the shell seeds into its table (rc.8 `packages/client/web/src/platform.ts`, `PLATFORM_MODULES`). */
export const SHELL_MODULES = new Set([
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@deepseek-ai/cordis',
  '@deepseek-ai/dsh-client-ui-slots',
  '@deepseek-ai/dsh-client-ui-primitives',
])

export async function buildClient(file = CLIENT_BUNDLE) {
  await build({
    input: join(here, 'src', 'index.ts'),
    platform: 'browser',
    external: (id) => SHELL_MODULES.has(id),
    transform: {
      jsx: 'react-jsx',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    },
    output: {
      file,
      format: 'cjs',
      banner: `window.__ModuleLoader__.load({ id: ${JSON.stringify(name)}, factory: (require) => {`,
      intro: 'var module = { exports: {} }; var exports = module.exports;',
      footer: 'return module.exports; } });',
    },
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildClient()
