/**
 * The location that serves every compressible extension, shared by both flavours, and its
 * stages. A stage is an `internal` location (nested in one `^~ /.P/` prefix location, so the
 * usual request never runs their regexes) reached by `error_page 404` with the requested URL
 * appended (`/.P/2/app.js`), so `$uri` keeps the original's extension and the `types {}` block
 * (the same in both locations) gives every sidecar its original's Content-Type; `alias` opens
 * `<root><url><suffix>` directly (no try_files stat before it). A miss goes to the next
 * acceptable coding, then the original, then `d`: decode the gzip variant
 * (`keepOriginals: false`) or a plain 404. The order is the fixed one unless a `u+x` mark on
 * the file's variants says otherwise (accept-maps.ts `stageOrder`, core `variantsToWrite`).
 */
import type { ServingPolicy } from '../policy.js'
import { nginxUseAsDictionaryHeader } from '../dictionary-nginx.js'
import { nginxString as q, type NginxNames } from './names.js'

/** What a flavour puts at the top of the location, and which stages it enters by. */
export interface FlavourEntry {
  /** Directives after `set $P_url $uri;`: how the usual request is answered. */
  entry: string[]
  /** Directives that switch the flavour's own modules off in the stages. */
  stageOff: string[]
}

export function headers(n: NginxNames, contentEncoding: string | undefined): string[] {
  return [
    ...(contentEncoding ? [`add_header Content-Encoding ${contentEncoding};`] : []),
    'add_header Vary Accept-Encoding;',
    `add_header Cache-Control ${n.v('cc')};`,
    'add_header X-Content-Type-Options nosniff always;',
    nginxUseAsDictionaryHeader(n.prefix),
  ]
}

function typesBlock(policy: ServingPolicy): string[] {
  return [
    'types {',
    ...[...policy.extensionsByType].map(([type, extensions]) => `    ${q(type)} ${extensions.join(' ')};`),
    '}',
    'default_type application/octet-stream;',
  ]
}

function indent(lines: string[], by = '    '): string[] {
  return lines.map((l) => (l ? `${by}${l}` : l))
}

function stage(n: NginxNames, name: string, body: string[]): string[] {
  return [`location ~ ${q(n.stagePattern(name))} {`, ...indent(['internal;', ...body]), '}']
}

export function compressibleLocation(
  n: NginxNames,
  policy: ServingPolicy,
  root: string,
  flavour: FlavourEntry,
): string[] {
  const url = n.v('url')
  const stages: string[] = []
  for (let i = 1; i <= 3; i++) {
    if (i > policy.codings.length) break
    stages.push(
      ...stage(n, String(i), [
        ...flavour.stageOff,
        `alias ${q(`${root}${url}${n.v(`s${i}`)}`)};`,
        `error_page 404 = ${n.stage('')}${n.v(`n${i}`)}${url};`,
        ...headers(n, n.v(`ce${i}`)),
      ]),
    )
  }
  stages.push(
    ...stage(n, 'o', [
      ...flavour.stageOff,
      `alias ${q(`${root}${url}`)};`,
      `error_page 404 = ${n.stage('d')}${url};`,
      ...headers(n, undefined),
    ]),
  )
  stages.push(
    ...stage(
      n,
      'd',
      policy.keepOriginals
        ? ['recursive_error_pages off;', 'return 404;']
        : [
            '# keepOriginals: false — the original is not on disk: the gzip variant, decoded for clients without gzip.',
            'recursive_error_pages off;',
            ...flavour.stageOff.filter((l) => !l.startsWith('gzip_static')),
            'gzip_static always;',
            'gunzip on;',
            'gzip_vary off;',
            'gzip_proxied any;',
            'gzip_http_version 1.0;',
            `alias ${q(`${root}${url}`)};`,
            ...headers(n, undefined),
          ],
    ),
  )
  const pattern = `\\.(?:${policy.extensions.join('|')})$`
  const shared = [
    ...typesBlock(policy),
    'gzip off;',
    'recursive_error_pages on;',
    '# A missing variant is the usual case for small files, not an error worth a log line.',
    'log_not_found off;',
  ]
  return [
    `# Every compressible type: its own Content-Type on the sidecars; ${policy.codings.join(', ')} in that order of preference.`,
    `location ~* ${q(pattern)} {`,
    ...indent([
      ...shared,
      `set ${url} $uri;`,
      `set ${n.v('mk')} "";`,
      "# This file's sizes disagree with the fixed order (a u+x mark): stage 1 in its own order.",
      `error_page 418 = ${n.stage('1')}${url};`,
      `if (-x ${n.v('mcheck')}) { set ${n.v('mk')} x; return 418; }`,
      ...flavour.entry,
    ]),
    '}',
    '',
    '# The stages, under a prefix location of their own: a prefix match needs no regex, and `^~`',
    '# keeps these URIs from the regex locations; so the usual request never tests the stages.',
    `location ^~ ${n.stage('')} {`,
    ...indent(['internal;', ...shared, '', ...stages]),
    '}',
  ]
}
