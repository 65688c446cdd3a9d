import type { Context } from '@deepseek-ai/cordis'
import { readConfig } from './config.ts'
import { installAdmission } from './dsh/instance-state.ts'
import { stderrAndLogger } from './dsh/notice-sink.ts'
import { installForwardingMethod } from './dsh/own-method.ts'
import { installReadGuard } from './dsh/read-guard.ts'
import { dshRegistryOf, rawTools, unsupportedShapeNotice } from './dsh/registry.ts'
import type { RegisterMethod } from './dsh/tool-definition.ts'
import { verdictLedgerOf } from './dsh/verdicts.ts'
import { notProjectedOnce, withheldOnRouteNotice } from './gate/notices.ts'
import { registerDoor } from './gate/register-door.ts'
import { ToolGate } from './gate/tool-gate.ts'
import { installDeclaredCalls } from './route/declared-calls.ts'
import { installRenamedLookup } from './route/renamed-lookup.ts'
import { RouteProjector, type ToolsInScope } from './route/route-projection.ts'

/**
 * The cordis plugin: a DSH profile row (`name: "@dsh-harden/overlay"`) or `ctx.plugin(HardenOverlay, config)`. It
 * wires the pipeline on the live `tools` instance: the register door and the gate (`gate/`), the read guard over DSH's
 * registry (`dsh/`), and the route: the wire schemas where DSH assembles a request and the calls read back
 * (`route/`).
 */
export const HardenOverlay = {
  name: 'dsh-harden-overlay',
  inject: ['tools'],
  apply(ctx: Context, config?: unknown): void {
    const notify = stderrAndLogger(ctx)
    const settings = readConfig(config, notify)
    // One wire path: a configured route and a found one are applied by the same projection, renames and reading.
    const routes = new RouteProjector(
      notProjectedOnce(notify),
      settings.route,
      (tool, profile, reason) => notify(withheldOnRouteNotice(tool, profile, reason)),
      notify,
    )
    const tools = rawTools(ctx)
    const registry = dshRegistryOf(tools)
    if (registry === undefined) unsupportedShapeNotice(tools, notify)
    const ledger = verdictLedgerOf(tools)
    const gate = new ToolGate(tools, { mode: settings.mode }, routes, notify, ledger, registry)
    ctx.effect(
      () =>
        // Installed without a forwarding hop: the door sits on the stack of every registration.
        installForwardingMethod<'register', RegisterMethod>(tools, 'register', (previous, stillInstalled) =>
          registerDoor(previous, gate.atRegister, { on: tools, stillInstalled }),
        ),
      'dsh-harden: guard tools.register()',
    )
    if (registry !== undefined) {
      ctx.effect(() => {
        const uninstall = installReadGuard(registry, gate.filter)
        try {
          gate.sweep(registry)
        } catch (error) {
          uninstall()
          throw error
        }
        const uninstallAdmission = installAdmission(tools, gate.atRebuild)
        const unsettle = ledger.settleWith(gate.settle)
        return () => {
          unsettle()
          uninstallAdmission()
          uninstall()
        }
      }, 'dsh-harden: guard what tools readers see')
    }
    const resolve: ToolsInScope =
      registry === undefined
        ? (scope) => (name) =>
            (tools as unknown as { get(name: string, scope: unknown): object | undefined }).get(name, scope)
        : // One view per assembly, however many tools it carries.
          (scope) => registry.visible(scope)
    ctx.effect(() => routes.install(ctx, resolve), 'dsh-harden: project for the route in use')
    ctx.effect(
      () => installRenamedLookup(tools, routes.registeredName),
      'dsh-harden: resolve the tool names a route renamed',
    )
    ctx.effect(() => {
      const uninstall = installDeclaredCalls(ctx, tools, {
        declaredName: routes.registeredName,
        contractOf: routes.contractOf,
        argumentProfile: routes.argumentProfile,
        validateArguments: settings.validateArguments,
      })
      if (uninstall !== undefined) return uninstall
      notify(
        'dsh-harden: this DSH tool registry has no ToolRuntime.prepareExecution/executionMode (the rc.8 shape), so ' +
          'calls reach tools as the model sent them: renamed tools are not found and encoded arguments are not ' +
          'read back. Pin @deepseek-ai/dsh-tools to 0.1.0-rc.8 or 0.1.1-rc.2, or report this.',
      )
      return () => {}
    }, "dsh-harden: calls in the declared tool's terms")
  },
}
