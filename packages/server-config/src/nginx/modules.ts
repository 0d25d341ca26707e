/**
 * nginx, modules flavour: `brotli_static` (Debian's libnginx-mod-http-brotli-static) and
 * `gzip_static` answer the usual request alone, with no stat of ours before them. They cannot
 * serve zstd, know neither `x-gzip` nor `*`, allow no Range, and pick br then gzip by what
 * exists, so a request where that could differ from the fixed order (zstd acceptable, br or
 * gzip acceptable only through `x-gzip`/`*`, br refused with q=0, a Range) takes the stages of
 * locations.ts instead, through `return 418`. So does a br or gzip entry with parameters: the
 * modules read weights their own way (brotli_static takes `br;q=.5`, a bare `br;q` or
 * `br;q=1.0001` as accepting br, gzip_static a bare `gzip;q`), where an entry whose weight is not
 * an RFC 9110 qvalue is ignored (negotiate.ts); browsers send no parameters.
 */
import type { ServingPolicy } from '../shared/policy.js'
import { type AeValue, aeValues } from './accept-maps.js'
import { type FlavourEntry, headers } from './locations.js'
import { type NginxNames, nginxString as q } from './names.js'

/** Whether the modules could answer differently from the stages for some file. */
function needsStages(policy: ServingPolicy, value: AeValue, range: boolean): boolean {
  const has = (e: 'br' | 'zstd' | 'gzip'): boolean => policy.codings.includes(e)
  if (range) return policy.codings.some((e) => value.ok[e])
  if (has('zstd') && value.ok.zstd) return true
  // brotli_static serves br whenever it sees a br token we count as accepted; a q=0 token it
  // may not honour, and `*` it does not know.
  if (has('br') && (value.aeBr === '0' || value.ok.br !== (value.aeBr === '1'))) return true
  return has('gzip') && value.ok.gzip !== value.plainGzip
}

export function modulesMaps(n: NginxNames, policy: ServingPolicy): string[] {
  const entries: string[] = []
  for (const value of aeValues(true)) {
    for (const range of [false, true]) {
      if (needsStages(policy, value, range)) entries.push(`    ${q(`${value.key}:${+range}`)} 1;`)
    }
  }
  return [
    '# 1 when br or gzip has parameters: the modules read weights their own way, the stages by RFC 9110.',
    `map $http_accept_encoding ${n.v('weighted')} {`,
    '    default "";',
    `    ${q('~*(?:^|,)\\s*(?:x-)?(?:br|gzip)\\s*;')} 1;`,
    '}',
    '# 1 when the request must take the stages instead of brotli_static/gzip_static.',
    `map "${n.v('ae')}:${n.v('range')}" ${n.v('stages')} {`,
    '    default "";',
    ...entries,
    '}',
    '',
  ]
}

export function modulesEntry(n: NginxNames, policy: ServingPolicy): FlavourEntry {
  const has = (e: 'br' | 'gzip'): boolean => policy.codings.includes(e)
  return {
    entry: (values) => [
      ...(has('gzip') ? ['gzip_static on;', 'gzip_vary off;', 'gzip_proxied any;', 'gzip_http_version 1.0;'] : []),
      ...(has('br') ? ['brotli_static on;'] : []),
      `error_page 418 = ${n.stage('1')}${n.v('tail')};`,
      `if (${n.v('stages')}) { return 418; }`,
      `if (${n.v('weighted')}) { return 418; }`,
      // A miss goes to stage d: the decoded gzip variant (keepOriginals: false), else a 404 that
      // the server's own `error_page 404` answers (this location's error_page 418 stops nginx
      // from inheriting it here; stage d inherits it).
      `error_page 404 = ${n.stage('d')}${n.v('tail')};`,
      // The modules set Content-Encoding themselves.
      ...headers(n, undefined, values),
    ],
    stageOff: [...(has('gzip') ? ['gzip_static off;'] : []), ...(has('br') ? ['brotli_static off;'] : [])],
  }
}
