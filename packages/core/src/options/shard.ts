import { userError } from '../errors.js'
import { KEY_LABEL, type OptionLabel } from './option-label.js'

/** One share of a cold compress split across CI jobs: `index` of `count`, 1-based as written. */
export interface Shard {
  index: number
  count: number
}

/**
 * A shard fills the cache for the final run to assemble from, so it needs one (best a shared
 * one); the error names both settings through `label` (the CLI: `--shard`, `--no-cache`).
 */
export function assertShardHasCache(cacheDir: string | false, label: OptionLabel = KEY_LABEL): void {
  if (cacheDir !== false) return
  throw userError(
    'options',
    `${label('shard')} fills the cache for the final run to assemble from, so it needs a cache (best a shared one, s3://bucket/prefix), but ${label('cache')} turns the cache off.`,
  )
}

/**
 * `"2/3"` -> `{ index: 2, count: 3 }`, with an error naming the setting through `label` (the
 * CLI: its flag) for anything else.
 */
export function parseShard(text: string, label: OptionLabel = KEY_LABEL): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const index = match ? Number(match[1]) : Number.NaN
  const count = match ? Number(match[2]) : Number.NaN
  if (!match || count < 1 || index < 1 || index > count) {
    throw userError('options', `${label('shard')} is \`${text}\`; it must be i/n with 1 <= i <= n, e.g. 2/3.`)
  }
  return { index, count }
}

/**
 * The jobs of one shard, split by bytes (the work), not by file count: one 7 MB chunk weighs
 * more than a thousand 2 KB pages. Largest first, each job goes to the shard holding the fewest
 * bytes so far (ties to the lowest index): every runner computes the same split from the same
 * files, so the shards are disjoint and together cover every file, with no coordination.
 * `costOf` weighs a job (default: its bytes); files that will not be encoded weigh nothing.
 */
export function shardJobs<T extends { path: string; weight: number }>(
  jobs: readonly T[],
  shard: Shard,
  costOf: (job: T) => number = (job) => job.weight,
): T[] {
  const costs = new Map(jobs.map((job) => [job, costOf(job)]))
  const ordered = [...jobs].sort(
    (a, b) => costs.get(b)! - costs.get(a)! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  )
  const loads = new Array<number>(shard.count).fill(0)
  const mine: T[] = []
  for (const job of ordered) {
    let lightest = 0
    for (let i = 1; i < loads.length; i++) if (loads[i]! < loads[lightest]!) lightest = i
    loads[lightest] = loads[lightest]! + costs.get(job)!
    if (lightest === shard.index - 1) mine.push(job)
  }
  return mine
}
