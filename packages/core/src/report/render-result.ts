/**
 * The one renderer of a build's result, for every entry point (`preencode compress`, the
 * plugins, the framework integrations): the text report, or one JSON object.
 */

import type { Shard } from '../options/shard.js'
import { type DeltaReport, formatDeltaReport } from './delta-report.js'
import type { CompressReport } from './report.js'
import { formatReport } from './report.js'

/** What one run of the build runner made of one directory. */
export interface BuildResult {
  /** The compressed directory, absolute. */
  dir: string
  report: CompressReport
  /** The delta updates' report (RFC 9842), when delta updates were on. */
  deltas?: DeltaReport | undefined
  /** The share a sharded run encoded into the cache; nothing was written into `dir`. */
  shard?: Shard | undefined
}

/**
 * The JSON shape of a result, the same from every entry point: the `CompressReport` with the
 * delta report under `deltas` when delta updates were on.
 */
export type BuildResultJson = CompressReport & { deltas?: DeltaReport }

/** The one JSON shape of a result (`BuildResultJson`), as `--json` and `report: 'json'` print it. */
export function buildResultJson(result: BuildResult): BuildResultJson {
  return result.deltas ? { ...result.report, deltas: result.deltas } : result.report
}

export interface RenderResultOptions {
  /** `text`: the table (and the delta summary); `json`: one line, `buildResultJson`. */
  mode: 'text' | 'json'
  /** ANSI colour in the table. @default false */
  color?: boolean
}

/** The result as printed: one JSON line, or the report table followed by the delta summary. */
export function renderBuildResult(result: BuildResult, options: RenderResultOptions): string {
  if (options.mode === 'json') return JSON.stringify(buildResultJson(result))
  if (result.shard) {
    const { index, count } = result.shard
    return `shard ${index}/${count}: ${result.report.cache.misses} encoded into the cache, ${result.report.cache.hits} already there; nothing written to ${result.report.dir}. Run again without the shard, with the same options and cache, to assemble the site.`
  }
  const table = formatReport(result.report, { color: options.color === true })
  return result.deltas ? `${table}\n${formatDeltaReport(result.deltas)}` : table
}
