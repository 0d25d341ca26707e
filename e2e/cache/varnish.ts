// Varnish in front of an origin, started by test-utils' one start-up (servers/varnish.ts: a
// throw-away root, a loopback port picked at run time, `-F` so it stops with the test). Also
// the VCLs the suites compare: the generated one, stock Varnish's, and planted faults.
import type { Manifest } from '@preencode/core'
import { varnishConfig } from '@preencode/server-config'
import { startVarnish as startVarnishd } from '@preencode/test-utils'

export interface RunningVarnish {
  readonly url: string
  readonly port: number
  /** `varnishstat -1` counters (MAIN.cache_hit...). */
  counters(): Promise<Record<string, number>>
  logs(): string
  stop(): Promise<void>
}

/** Starts varnishd with `vcl` on `port` (default: a free one); `params` are `-p name=value` runtime parameters. */
export async function startVarnish(vcl: string, port?: number, params: string[] = []): Promise<RunningVarnish> {
  const varnish = await startVarnishd(vcl, { params, ...(port === undefined ? {} : { port }) })
  return {
    url: varnish.url,
    port: varnish.port,
    counters: async () => varnish.counters(),
    logs: () => `--- VCL ---\n${vcl}\n${varnish.logs()}`,
    stop: () => varnish.stop(),
  }
}

/** The generated VCL for an origin on `backendPort`. */
export function generatedVcl(manifest: Manifest, backendPort: number): string {
  return varnishConfig(manifest, { backend: `127.0.0.1:${backendPort}` })
}

/** Stock Varnish: only the backend; the built-in VCL does the rest (http_gzip_support on). */
export function stockVcl(backendPort: number): string {
  return [
    'vcl 4.1;',
    '',
    'backend default {',
    '    .host = "127.0.0.1";',
    `    .port = "${backendPort}";`,
    '}',
    '',
  ].join('\n')
}

/**
 * Faults planted in the generated VCL, each one a real-world mistake, and the kinds of line
 * `preencode verify --cache` must print for it (exactly these).
 */
export const BROKEN_VCLS: Record<string, { plant: (vcl: string) => string; kinds: string[] }> = {
  // Accept-Encoding forced to gzip (what http_gzip_support does to a VCL that does not restore it).
  'gzip-only': {
    plant: (vcl) =>
      vcl.replace(
        'set bereq.http.Accept-Encoding = bereq.http.X-Preencode-AE;',
        'set bereq.http.Accept-Encoding = "gzip";',
      ),
    // The origin never sees dcb/dcz either.
    kinds: ['strips', 'delta not served'],
  },
  // Vary removed on the way out "to help browsers cache".
  'no-vary': {
    plant: (vcl) => `${vcl}\nsub vcl_deliver {\n    unset resp.http.Vary;\n}\n`,
    kinds: ['no Vary'],
  },
  // The coding left out of the key and Vary dropped before storing ("one object per URL").
  'hash-without-coding': {
    plant: (vcl) =>
      vcl
        .replace(/ {4}hash_data\(req\.http\.X-Preencode-AE\);\n/, '')
        .replace(/sub vcl_backend_response \{/, 'sub vcl_backend_response {\n    unset beresp.http.Vary;') +
      '\nsub vcl_deliver {\n    set resp.http.Vary = "Accept-Encoding";\n}\n',
    // Its Vary lacks Available-Dictionary on deltas too.
    kinds: ['coding stored for another request', 'no Vary'],
  },
  // Available-Dictionary removed (a cache that only knows Accept-Encoding).
  'no-dictionary': {
    plant: (vcl) =>
      vcl.replace('sub vcl_backend_fetch {', 'sub vcl_backend_fetch {\n    unset bereq.http.Available-Dictionary;'),
    kinds: ['delta not served'],
  },
}

/**
 * Fastly's documented normalisation before `vcl_recv` (docs/cdn.md), played by Varnish: the
 * original header saved in Fastly-Orig-Accept-Encoding, then Accept-Encoding reduced to one
 * token (gzip if named, else deflate, else none). With `restore`, the lines docs/cdn.md gives
 * put the browser's header back before the generated normalisation runs.
 */
export function fastlyLikeVcl(vcl: string, restore: boolean): string {
  const fastly = [
    'sub vcl_recv {',
    '    # What Fastly does before vcl_recv.',
    '    set req.http.Fastly-Orig-Accept-Encoding = req.http.Accept-Encoding;',
    '    if (req.http.Accept-Encoding ~ "gzip") {',
    '        set req.http.Accept-Encoding = "gzip";',
    '    } elsif (req.http.Accept-Encoding ~ "deflate") {',
    '        set req.http.Accept-Encoding = "deflate";',
    '    } else {',
    '        unset req.http.Accept-Encoding;',
    '    }',
    ...(restore
      ? [
          "    # docs/cdn.md: restore the browser's header, then the generated normalisation.",
          '    if (req.http.Fastly-Orig-Accept-Encoding) {',
          '        set req.http.Accept-Encoding = req.http.Fastly-Orig-Accept-Encoding;',
          '    }',
        ]
      : []),
    '    call preencode_recv;',
    '}',
  ].join('\n')
  return vcl.replace(/sub vcl_recv \{\n {4}call preencode_recv;\n\}/, fastly)
}
