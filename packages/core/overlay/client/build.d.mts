/** Where `exports["./client"]` points. */
export declare const CLIENT_BUNDLE: string
/** The modules the shell seeds into its table; everything else is inlined. */
export declare const SHELL_MODULES: ReadonlySet<string>
/** Builds the browser bundle into `file` (default {@link CLIENT_BUNDLE}). */
export declare function buildClient(file?: string): Promise<void>
