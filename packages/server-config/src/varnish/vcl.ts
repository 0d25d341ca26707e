/**
 * Varnish: a complete VCL (4.1) for a shared cache in front of an origin serving the variants
 * (any generated config, or the Node middleware). Generated from options only, like the origin
 * configs. What it does, and why:
 *
 * - The cache key is the coding the origin will answer with, not the client's spelling of
 *   Accept-Encoding. `vcl_recv` reads the header with the rules of `negotiate()` (whole tokens,
 *   case-insensitive, `x-gzip`, q-values, `q=0` refusals, `*`; the regexes of shared/accept-regex.ts,
 *   which nginx and Apache use too) and replaces it with the first acceptable coding of the
 *   site in the fixed order of preference, or removes it (the original). `vcl_hash` adds that
 *   coding to the key, so the cache holds at most one object per coding per URL and never hands
 *   one client's coding to another, whatever `Vary` the origin sends; the origin's `Vary` is
 *   passed through untouched. URLs that have no variants (images, fonts) are one object; an
 *   extensionless URL is negotiated like a page (the origin answers it with `about.html` or its
 *   `404.html`, the static-host conventions; an extensionless file of its own costs a restart).
 * - A file without that coding (a zstd-only asset, a file too small for variants) comes back
 *   uncompressed; `vcl_deliver` then restarts the request with the client's next acceptable
 *   coding, so the client gets the file's first variant in the fixed order, as every configured
 *   server does (`fixedCodingOrder`), and every key still holds one coding.
 * - RFC 9842 deltas: `Available-Dictionary` is kept, added to the key and sent on only where a
 *   delta can exist (HTML pages and versioned assets), when it is exactly one sf-binary SHA-256
 *   and `dcb` or `dcz` is named with q > 0; everywhere else it is removed, so it never splits
 *   the cache. The request then asks the origin for `dcb, dcz, <coding>`.
 * - `http_gzip_support` (on by default) makes Varnish ask the origin for gzip only;
 *   `vcl_backend_fetch` puts the chosen coding back, so br and zstd reach the origin.
 * - `no-cache` responses (HTML) are stored with a 1 ms TTL (Varnish never looks up an object
 *   whose TTL is 0) and a keep window: each use is revalidated with the origin (If-None-Match;
 *   a 304 reuses the stored body), as RFC 9111 §5.2.2.4 asks, instead of never being stored.
 *
 * Every subroutine falls through to Varnish's built-in VCL (cookies, methods, hit-for-miss).
 */

import type { Manifest } from '@preencode/core'
import { AVAILABLE_DICTIONARY_PATTERN, HASHED_NAME_RULE } from '@preencode/core/internal'
import type { Encoding } from '../http/negotiate.js'
import { acceptPattern, acceptTokenPattern, refusePattern, refuseTokenPattern } from '../shared/accept-regex.js'
import { HTML_PATTERN, resolveServingPolicy } from '../shared/policy.js'
import { resolveVarnishOptions, type VarnishConfigOptions } from './options.js'

export type { VarnishConfigOptions } from './options.js'

/** The request header that carries the chosen coding from `vcl_recv` to the fetch and the hash. */
const VARNISH_CODING_HEADER = 'X-Preencode-AE'

/** The oldest Varnish that reads `vcl 4.1` (6.0); tested with Debian's 7.1. */
export const MIN_VARNISH_VERSION = '6.0'

const AE = 'req.http.Accept-Encoding'
const H = `req.http.${VARNISH_CODING_HEADER}`
/** The query string aside. */
const QUERY = '(?:\\?.*)?$'

/** A VCL string literal; the patterns here hold no `"` (VCL strings have no escapes). */
function str(value: string): string {
  if (value.includes('"') || value.includes('\n')) throw new Error(`VCL string cannot hold ${JSON.stringify(value)}`)
  return `"${value}"`
}

/** Where a passed HEAD's Content-Encoding waits from vcl_backend_response to vcl_deliver. */
const CE_KEPT = 'X-Preencode-Content-Encoding'
/** The client's header, saved before the first pass rewrites Accept-Encoding (restarts read it again). */
const ORIG = 'req.http.X-Preencode-Orig-AE'
/** The codings already asked for in this request's earlier passes, space-separated. */
const TRIED = 'req.http.X-Preencode-Tried'

/** The condition "coding acceptable": not refused, and named, or not named while `*` is accepted. */
function acceptable(coding: Encoding): string {
  const refused = `${ORIG} ~ ${str(`(?i)${refusePattern(coding)}`)}`
  const named = `${ORIG} ~ ${str(`(?i)${acceptPattern(coding)}`)}`
  const star = `(${ORIG} ~ ${str(`(?i)${acceptPattern('*')}`)} && ${ORIG} !~ ${str(`(?i)${refusePattern('*')}`)})`
  return `!(${refused}) && (${named} || ${star})`
}

/** `dcb`/`dcz` must be named with q > 0 (`*` does not promise a dictionary). */
function deltaAcceptable(token: 'dcb' | 'dcz'): string {
  return `${ORIG} ~ ${str(`(?i)${acceptTokenPattern(token)}`)} && ${ORIG} !~ ${str(`(?i)${refuseTokenPattern(token)}`)}`
}

/** Generates the VCL. Pure. */
export function varnishConfig(manifest: Manifest, options: VarnishConfigOptions): string {
  const { host, port, keepSeconds } = resolveVarnishOptions(options)
  const policy = resolveServingPolicy(manifest, options)
  // With the static-host conventions an extensionless URL is a page (clean URL, SPA, the 404 page): negotiated too.
  const { cleanUrls, spa } = policy.conventions
  const pages = cleanUrls || spa || policy.notFoundPage ? '|/[^./?]+' : ''
  const compressible = `(?i)^[^?]*(?:/|\\.(?:${policy.extensions.join('|')})${pages})${QUERY}`
  const versioned = `/${HASHED_NAME_RULE.stem}${HASHED_NAME_RULE.separator}${HASHED_NAME_RULE.token}\\.(?:${HASHED_NAME_RULE.extensions.join('|')})`
  const html = HTML_PATTERN.replace(/\$$/, '')
  const deltaUrl = `^[^?]*(?:${versioned}|${html})${QUERY}`
  // The first acceptable coding not tried yet, and whether another one follows it.
  const chain = policy.codings.flatMap((coding) => [
    `if (${acceptable(coding)} && ${TRIED} !~ ${str(`(^| )${coding}( |$)`)}) {`,
    `    if (req.http.X-Preencode-Coding) {`,
    '        set req.http.X-Preencode-Next = "1";',
    '    } else {',
    `        set req.http.X-Preencode-Coding = ${str(coding)};`,
    '    }',
    '}',
  ])
  const out = [
    `# generated by preencode — do not edit (from ${policy.generator}; regenerate with \`preencode config\` only when options change)`,
    `# Varnish >= ${MIN_VARNISH_VERSION} (VCL 4.1), tested with 7.1, with http_gzip_support on (the default) or off.`,
    `# A shared cache in front of the origin that serves the variants (${policy.codings.join(', ')}).`,
    'vcl 4.1;',
    '',
    'import std;',
    '',
    'backend default {',
    `    .host = ${str(host)};`,
    `    .port = ${str(String(port))};`,
    '}',
    '',
    'sub vcl_recv {',
    '    call preencode_recv;',
    '}',
    '',
    '# Accept-Encoding -> the coding the origin will answer with (RFC 9110 §12.5.3: whole tokens,',
    '# any case, x-gzip, q=0 refuses, * covers the codings not named), the first acceptable one',
    `# in the order ${policy.codings.join(', ')} not tried yet (see vcl_deliver); none -> the original. It is`,
    '# the cache key: one object per coding per URL, whatever the exact header a browser sends.',
    'sub preencode_recv {',
    '    if (req.restarts == 0) {',
    `        std.collect(${AE});`,
    '        std.collect(req.http.Available-Dictionary);',
    `        unset ${TRIED};`,
    `        if (${AE}) {`,
    `            set ${ORIG} = ${AE};`,
    '        } else {',
    `            unset ${ORIG};`,
    '        }',
    '    }',
    '    unset req.http.X-Preencode-Coding;',
    '    unset req.http.X-Preencode-Next;',
    '    unset req.http.X-Preencode-Delta;',
    `    set ${H} = "identity";`,
    `    if (req.url !~ ${str(compressible)}) {`,
    '        # No variants at this URL: one object for every client.',
    `        unset ${AE};`,
    '        unset req.http.Available-Dictionary;',
    '        return;',
    '    }',
    ...chain.map((l) => `    ${l}`),
    '    if (req.http.X-Preencode-Coding) {',
    `        set ${H} = req.http.X-Preencode-Coding;`,
    '    }',
    '    # RFC 9842: a delta can exist for HTML pages and versioned assets only; elsewhere, or when',
    '    # the header is not one sf-binary SHA-256, or dcb/dcz is not named, the header goes.',
    '    if (req.http.Available-Dictionary ~ ' +
      `${str(AVAILABLE_DICTIONARY_PATTERN)} && req.url ~ ${str(deltaUrl)}) {`,
    `        if (${deltaAcceptable('dcb')}) {`,
    '            set req.http.X-Preencode-Delta = "dcb";',
    '        }',
    `        if (${deltaAcceptable('dcz')}) {`,
    '            if (req.http.X-Preencode-Delta) {',
    '                set req.http.X-Preencode-Delta = "dcb, dcz";',
    '            } else {',
    '                set req.http.X-Preencode-Delta = "dcz";',
    '            }',
    '        }',
    '    }',
    '    if (!req.http.X-Preencode-Delta) {',
    '        unset req.http.Available-Dictionary;',
    `    } elsif (${H} == "identity") {`,
    `        set ${H} = req.http.X-Preencode-Delta;`,
    '    } else {',
    `        set ${H} = req.http.X-Preencode-Delta + ", " + ${H};`,
    '    }',
    '    unset req.http.X-Preencode-Delta;',
    `    if (${H} == "identity") {`,
    `        unset ${AE};`,
    '    } else {',
    `        set ${AE} = ${H};`,
    '    }',
    '}',
    '',
    'sub vcl_hash {',
    '    # The coding (and, where a delta can exist, the dictionary) is part of the key; the URL and',
    '    # Host are added by the built-in vcl_hash.',
    `    hash_data(${H});`,
    '    if (req.http.Available-Dictionary) {',
    '        hash_data(req.http.Available-Dictionary);',
    '    }',
    '}',
    '',
    'sub vcl_deliver {',
    '    # A passed HEAD (a Cookie or Authorization header): Varnish drops Content-Encoding from an',
    '    # answer without a body; vcl_backend_response kept it aside. Put it back before it is read.',
    `    if (resp.http.${CE_KEPT}) {`,
    `        set resp.http.Content-Encoding = resp.http.${CE_KEPT};`,
    `        unset resp.http.${CE_KEPT};`,
    '    }',
    '    # The file has no variant in that coding (it came back uncompressed): ask again with the',
    "    # client's next acceptable coding. Each pass is a lookup of its own key.",
    '    if ((resp.status == 200 || resp.status == 206) && !resp.http.Content-Encoding &&',
    '        req.http.X-Preencode-Next && req.restarts < 3) {',
    `        set ${TRIED} = ${TRIED} + " " + req.http.X-Preencode-Coding;`,
    '        return (restart);',
    '    }',
    '}',
    '',
    'sub vcl_backend_fetch {',
    '    # http_gzip_support (on by default) rewrites Accept-Encoding to gzip on every fetch: put',
    '    # back the coding chosen in vcl_recv, so br, zstd, dcb and dcz reach the origin.',
    `    if (bereq.http.${VARNISH_CODING_HEADER} == "identity") {`,
    '        unset bereq.http.Accept-Encoding;',
    `    } elsif (bereq.http.${VARNISH_CODING_HEADER}) {`,
    `        set bereq.http.Accept-Encoding = bereq.http.${VARNISH_CODING_HEADER};`,
    '    }',
    `    unset bereq.http.${VARNISH_CODING_HEADER};`,
    '    unset bereq.http.X-Preencode-Orig-AE;',
    '    unset bereq.http.X-Preencode-Tried;',
    '    unset bereq.http.X-Preencode-Coding;',
    '    unset bereq.http.X-Preencode-Next;',
    '}',
    '',
    'sub vcl_backend_response {',
    '    # A HEAD reaches the origin only when passed; its answer has no body, and Varnish then drops',
    '    # Content-Encoding (it would take the variant for the original, and restart for another).',
    '    if (bereq.method == "HEAD" && beresp.http.Content-Encoding) {',
    `        set beresp.http.${CE_KEPT} = beresp.http.Content-Encoding;`,
    '    }',
    '    # no-cache (HTML pages): stored, but revalidated with the origin before each use (RFC 9111',
    '    # §5.2.2.4): Varnish sends If-None-Match / If-Modified-Since and keeps the body on a 304.',
    '    if (beresp.http.Cache-Control ~ "(?i)(^|,)\\s*no-cache\\s*(,|$)" &&',
    '        beresp.http.Cache-Control !~ "(?i)no-store|private" && !beresp.http.Set-Cookie &&',
    '        beresp.http.Vary != "*") {',
    '        # A TTL of 0 would not be looked up again; 1 ms is the smallest one that is.',
    '        set beresp.ttl = 0.001s;',
    '        set beresp.grace = 0s;',
    `        set beresp.keep = ${keepSeconds}s;`,
    '        return (deliver);',
    '    }',
    '}',
    '',
  ]
  return out.join('\n')
}
