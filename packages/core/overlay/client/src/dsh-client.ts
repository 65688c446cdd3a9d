/**
 * The slice of DSH rc.8's browser-side plugin API this browser half uses, written out because the `@deepseek-ai/*`
 * client packages are module-table rows of the web shell, not libraries to install: `ClientContext`
 * (`@deepseek-ai/dsh-client-runtime/client`), `ctx.slots.inject` / `ctx.slots.register`
 * (`@deepseek-ai/dsh-client-ui-slots`, `SlotCore.register`), `ctx.locale.register` / `bind`
 * (`@deepseek-ai/dsh-client-locale`, `LocaleRuntime`). `@deepseek-ai/dsh-client-ui-jobs`'s header action is the model.
 */
import type { ComponentType } from 'react'

/** `TranslateNS`: a key of the registered namespace, with `{name}` placeholders filled from `params`. */
export type Translate<K extends string> = (
  key: K,
  params?: Readonly<Record<string, string | number>>,
) => string

export interface SlotRegistration {
  readonly name: string
  readonly id: string
  readonly order?: number
  /** The locale namespace whose `t` the component receives. */
  readonly locale?: string
  /** `settings.plugins.tab`: the tab's text, registrant-localized. */
  readonly label?: () => string
}

export interface ClientContext {
  /** Runs `setup` now and its returned disposer when the plugin goes (HMR, unload). */
  effect(setup: () => () => void, label?: string): void
  readonly slots: {
    /** Runs `register` each time `slot` is declared (its owner may mount after this plugin), disposing it with the slot. */
    inject(slot: string, register: () => () => void): void
    register<P>(options: SlotRegistration, component: ComponentType<P>): () => void
  }
  readonly locale: {
    register(ns: string, dictionaries: { readonly zh: object; readonly en: object }): () => void
    bind<K extends string>(ns: string): Translate<K>
  }
}
