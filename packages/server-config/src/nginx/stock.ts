/**
 * nginx, stock flavour: no module beyond a stock build. The compressible location is stage 1
 * itself: `alias` opens the first acceptable variant (or the original) directly, and a miss
 * goes by `error_page 404` to the next stage (locations.ts). Serves br, zstd and gzip.
 */
import type { ServingPolicy } from '../shared/policy.js'
import { type FlavourEntry, headers } from './locations.js'
import { type NginxNames, nginxString as q } from './names.js'

export function stockEntry(n: NginxNames, _policy: ServingPolicy, root: string): FlavourEntry {
  return {
    entry: (values) => [
      `error_page 404 = ${n.stage('')}${n.v('n1')}${n.v('tail')};`,
      `alias ${q(`${root}$uri${n.v('s1')}`)};`,
      ...headers(n, n.v('ce1'), values),
    ],
    stageOff: [],
  }
}
