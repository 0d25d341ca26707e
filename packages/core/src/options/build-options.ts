/**
 * The options every build integration shares (the Vite and Rollup plugins, framework
 * integrations): the compression options plus how a build reports. Resolved once, when the
 * integration starts, and handed to the build runner as resolved objects.
 */

import { type ErrorComponent, userError } from '../errors.js'
import { type CompressOptions, type ResolvedCompressOptions, resolveCompressOptions } from './compress-options.js'
import { type DeltaOptions, type ResolvedDeltaOptions, resolveDeltasSetting } from './delta-options.js'
import { KEY_LABEL, type OptionLabel, within } from './option-label.js'

/** `true`: the table; `'json'`: one line of JSON (`BuildResultJson`); `false`: nothing. */
export type ReportMode = boolean | 'json' | 'html'

/** Options of a build integration: every compression option, plus how it reports. */
export interface BuildOptions extends CompressOptions {
  /**
   * Report after each build through the bundler's logger: `true` for the table, `'json'` for
   * one line of JSON (`BuildResultJson`: the `CompressReport` with the delta report under
   * `deltas`), `false` for nothing. `'html'`: the table, and the visual report (treemap by
   * bytes, sortable table, totals) written to `preencode-report.html` in the project root,
   * beside the output, never inside it.
   * @default true
   */
  report?: ReportMode
  /**
   * Delta updates (RFC 9842): content-hashed assets are announced as dictionaries and each new
   * version gets `.dcb`/`.dcz` deltas against the versions visitors may hold, read from the
   * cache's build history or `deltas.previous`. `false` turns it off. Needs Node >= 24.15; on
   * an older Node the default quietly does nothing, an explicit setting fails.
   * @default true
   */
  deltas?: boolean | DeltaOptions
  /**
   * Write the variants even when the build runs on a host that compresses on its own and ignores
   * uploaded `.br`/`.gz`/`.zst` files (Netlify, Vercel, Cloudflare Pages: `detectSidecarIgnoringHost`).
   * There, by default, nothing is compressed and one line says why. Set it when something else
   * serves the output: a Cloudflare Worker, your own origin server, GitLab Pages.
   * @default false
   */
  force?: boolean
}

/** What `resolveBuildOptions` returns: the resolved compress and delta options and how to report. */
export interface ResolvedBuildOptions {
  report: ReportMode
  compress: ResolvedCompressOptions
  /** Resolved delta options; false or absent when off. */
  deltas?: ResolvedDeltaOptions | false | undefined
  /** Write the variants on a host that ignores them too. */
  force: boolean
}

/** Where an integration resolves its options: the project root and its name in messages. */
export interface BuildOptionsContext {
  /** The project root: a relative `cache` and the default cache are found from here. */
  root: string
  /** Names the integration in error messages (`vite`, `rollup`, `astro`). */
  component: ErrorComponent
  /**
   * Glob patterns the integration never compresses (files its bundler writes for a server to
   * read), added to the user's `exclude`.
   * @default []
   */
  exclude?: readonly string[]
  /**
   * Names an option where the user wrote it (the CLI: a flag or the config file's key), e.g.
   * `label('levels.brotli')`, `label('deltas.versions')`. @default the key, `` `levels.brotli` ``
   */
  label?: OptionLabel | undefined
  /** How the user turns delta updates off, for the Node message. @default 'set `deltas: false`' */
  deltasOff?: string | undefined
}

/**
 * Validates the shared part of an integration's options; `rest` gets the integration's own
 * options back. Fails naming the option and the accepted values.
 */
export function resolveBuildOptions<T extends BuildOptions>(
  options: T,
  context: BuildOptionsContext,
  ownKeys: readonly (keyof T & string)[] = [],
): ResolvedBuildOptions & { rest: Partial<T> } {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw userError(
      context.component,
      `preencode() takes an options object; got ${options === null ? 'null' : typeof options}.`,
    )
  }
  const rest: Partial<T> = {}
  const compressOptions: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(options)) {
    if ((ownKeys as readonly string[]).includes(key)) (rest as Record<string, unknown>)[key] = value
    else if (key !== 'report' && key !== 'deltas' && key !== 'force') compressOptions[key] = value
  }
  const label = context.label ?? KEY_LABEL
  const report = options.report ?? true
  if (report !== true && report !== false && report !== 'json' && report !== 'html') {
    throw userError(
      context.component,
      `${label('report')} is ${JSON.stringify(report)}; it accepts true, false, 'json' or 'html'.`,
    )
  }
  const force = options.force ?? false
  if (typeof force !== 'boolean')
    throw userError(context.component, `${label('force')} is ${JSON.stringify(force)}; it accepts true or false.`)
  const extra = context.exclude ?? []
  const userExclude = compressOptions.exclude ?? []
  // A malformed `exclude` goes to core unchanged, whose message names it.
  // One pattern alone (`exclude: /\.map$/`) is allowed, as in Rollup's createFilter.
  const userList = typeof userExclude === 'string' || userExclude instanceof RegExp ? [userExclude] : userExclude
  // Once each: the manifest records the list, and the same site and options record the same one.
  if (extra.length > 0 && Array.isArray(userList))
    compressOptions.exclude = [...new Set([...(userList as unknown[]), ...extra])]
  const compress = resolveCompressOptions(compressOptions as CompressOptions, context.root, label)
  const deltas = resolveDeltasSetting(options.deltas, {
    cwd: context.root,
    component: context.component,
    label: within('deltas', label),
    off: context.deltasOff,
  })
  return { report, compress, deltas, force, rest }
}
