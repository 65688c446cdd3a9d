#!/usr/bin/env node
// Plain JavaScript on purpose: it must run on any Node to say which one is needed. DeepSeek Harness requires
// Node >= 22.19, and from a workspace checkout the command runs its TypeScript sources by type stripping.
// Node never strips types under node_modules, so an installed copy runs the built dist/ instead of src/.
const installed = import.meta.url.includes('/node_modules/')
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  // The same command again, on a Node 22 that needs no install: npm's `node` package for an installed copy, the
  // workspace's own Node (through its root `dsh-harden` script, which keeps paths relative to here) for a checkout.
  const args = process.argv.slice(2).map(quoted).join(' ')
  const again = installed
    ? `npx -p node@22 -p @dsh-harden/cli dsh-harden ${args}`
    : `pnpm -w dsh-harden ${args}   (anywhere in this checkout, once \`npm test\` or \`npm run regress\` has installed it)`
  process.stderr.write(
    `dsh-harden: needs Node.js >= 22.19, the version DeepSeek Harness requires; this is ${process.version}. ` +
      `Install Node 22 (for example \`nvm install 22\`), or run it on a Node 22 that needs no install:\n  ${again}\n`,
  )
  process.exit(2)
}
if (!installed && !process.features.typescript) {
  process.stderr.write(
    'dsh-harden: this checkout runs TypeScript sources; do not disable type stripping (--no-experimental-strip-types).\n',
  )
  process.exit(2)
}
const { run } = await import(installed ? '../dist/main.js' : '../src/main.ts')
await run()

/** An argument as a POSIX shell reads it back. */
function quoted(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.split("'").join("'\\''")}'`
}
