#!/usr/bin/env node
// Plain JavaScript on purpose: it must run on any Node to say which one is needed. DeepSeek Harness requires
// Node >= 22.19, and from a workspace checkout the command runs its TypeScript sources by type stripping.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `dsh-harden: needs Node.js >= 22.19, the version DeepSeek Harness requires; this is ${process.version}.\n` +
      'Install Node 22 (for example `nvm install 22`), or run it once with Node 22 fetched by npx:\n' +
      '  npx -p node@22 -p @dsh-harden/cli dsh-harden lint <plugin>\n',
  )
  process.exit(2)
}
// Node never strips types under node_modules, so an installed copy runs the built dist/ instead of src/.
const installed = import.meta.url.includes('/node_modules/')
if (!installed && !process.features.typescript) {
  process.stderr.write(
    'dsh-harden: this checkout runs TypeScript sources; do not disable type stripping (--no-experimental-strip-types).\n',
  )
  process.exit(2)
}
const { run } = await import(installed ? '../dist/main.js' : '../src/main.ts')
await run()
