/**
 * One place for every error preencode raises, so messages share a `[preencode] [component]`
 * prefix and user mistakes (which deserve a short message and exit code 1) can be told apart
 * from crashes (which deserve a stack).
 */
export type ErrorComponent =
  | 'core'
  | 'options'
  | 'cache'
  | 'vite'
  | 'rollup'
  | 'astro'
  | 'sveltekit'
  | 'vitepress'
  | 'nuxt'
  | 'cli'
  | 'server-config'
  | 'deploy'
  | 'verify'

/** What went wrong, for programs (each value documented below). */
export type PreencodeErrorCode =
  /** A user-supplied option has a value outside what is accepted. */
  | 'INVALID_OPTION'
  /** A file or directory named by the user is missing or unreadable. */
  | 'BAD_INPUT'
  /** The running Node lacks a feature the options ask for. */
  | 'UNSUPPORTED_RUNTIME'
  /** A remote target (server, bucket) refused or failed. */
  | 'TARGET_FAILED'
  /** A verification found served bytes or headers that do not match the manifest. */
  | 'VERIFY_FAILED'
  /** A file is larger than a size budget allows, or a budget matches no file. */
  | 'OVER_BUDGET'
  /** Anything else: a bug or an environment failure. */
  | 'INTERNAL'

/** What every message preencode prints or throws starts with; to find one in a child's output. */
export const MESSAGE_PREFIX = '[preencode]'

/**
 * `message` with the prefix every message of preencode carries: `[preencode] [component] …`, or
 * `[preencode] …` without a component.
 */
export function preencodeMessage(message: string, component?: ErrorComponent): string {
  return component ? `${MESSAGE_PREFIX} [${component}] ${message}` : `${MESSAGE_PREFIX} ${message}`
}

/** Every error preencode throws on purpose: `component` names where, `code` what; `isUserError` marks a mistake the user can fix. */
export class PreencodeError extends Error {
  override readonly name = 'PreencodeError'
  readonly component: ErrorComponent
  readonly code: PreencodeErrorCode
  /** True when the user can fix it (bad option, missing file): print the message, not a stack. */
  readonly isUserError: boolean
  /** The message without its `[preencode] [component]` prefix, for a caller that puts it in a sentence of its own. */
  readonly detail: string

  constructor(component: ErrorComponent, code: PreencodeErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(preencodeMessage(message, component), options.cause === undefined ? {} : { cause: options.cause })
    this.component = component
    this.code = code
    this.isUserError = code !== 'INTERNAL'
    this.detail = message
  }
}

/** Shorthand for the common case: an error the user can fix. */
export function userError(
  component: ErrorComponent,
  message: string,
  options: { cause?: unknown; code?: Exclude<PreencodeErrorCode, 'INTERNAL'> } = {},
): PreencodeError {
  return new PreencodeError(component, options.code ?? 'INVALID_OPTION', message, options)
}

/** Whether `error` is a `PreencodeError`. */
export function isPreencodeError(error: unknown): error is PreencodeError {
  return error instanceof PreencodeError
}
