/**
 * The location that serves every compressible extension, shared by both flavours, and its
 * stages. A stage is an `internal` location (nested in one `^~ /.P/` prefix location, so the
 * usual request never runs their regexes) reached by `error_page 404` with the requested URL's
 * extension appended (`/.P/2/_.js`: `$P_tail`; the whole URL would be cut at a `?` in a file
 * name, issue 19), so `$uri` keeps the original's extension and the `types {}` block
 * (the same in both locations) gives every sidecar its original's Content-Type; `alias` opens
 * `<root><url><suffix>` directly (no try_files stat before it). A miss goes to the next
 * acceptable coding, then the original, then `d`: decode the gzip variant
 * (`keepOriginals: false`) or a plain 404. The order is the fixed one (br, zstd, gzip among the
 * site's codings), whatever a file's own sizes (core `variantsToWrite`): no stat before `alias`.
 */
import { HASHED_NAME_RULE } from '@preencode/core/internal'
import { HASH_TOKEN_PCRE, hashedNamePattern, type ServingPolicy } from '../shared/policy.js'
import {
  nginxUseAsDictionaryFromCaptures,
  nginxUseAsDictionaryHeader,
  nginxVersionedAssetPattern,
} from './dictionary.js'
import { type NginxNames, nginxString as q } from './names.js'

/**
 * The Cache-Control and Use-As-Dictionary a location sends: the class maps' variables, or the
 * values its own regex already decided (every `map` costs a few hundred instructions, a regex
 * map far more, on every request).
 */
export interface HeaderValues {
  cacheControl: string
  /** `undefined`: the location's URLs never have one. */
  useAsDictionary: string | undefined
}

/** What a flavour puts at the top of the location, and which stages it enters by. */
export interface FlavourEntry {
  /** How the usual request is answered, with these headers. */
  entry: (values: HeaderValues) => string[]
  /** Directives that switch the flavour's own modules off in the stages. */
  stageOff: string[]
}

/** The class maps: right for every URL. */
function mapped(n: NginxNames): HeaderValues {
  return { cacheControl: n.v('cc'), useAsDictionary: n.v('use_as_dictionary') }
}

export function headers(n: NginxNames, contentEncoding: string | undefined, values = mapped(n)): string[] {
  return [
    ...(contentEncoding ? [`add_header Content-Encoding ${contentEncoding};`] : []),
    'add_header Vary Accept-Encoding;',
    `add_header Cache-Control ${values.cacheControl};`,
    'add_header X-Content-Type-Options nosniff always;',
    ...(values.useAsDictionary ? [nginxUseAsDictionaryHeader(n.prefix, values.useAsDictionary)] : []),
  ]
}

function typesBlock(policy: ServingPolicy, only?: readonly string[]): string[] {
  const rows = [...policy.extensionsByType].flatMap(([type, extensions]) => {
    const kept = only ? extensions.filter((e) => only.includes(e)) : extensions
    return kept.length ? [`    ${q(type)} ${kept.join(' ')};`] : []
  })
  return ['types {', ...rows, '}', 'default_type application/octet-stream;']
}

/**
 * Locations before the one for every compressible type, for the two classes most requests are
 * in, so those requests run no class map: HTML pages (Cache-Control of the html class, never a
 * Use-As-Dictionary), and versioned assets with a content-hashed name (immutable, and
 * Use-As-Dictionary from the location's own captures). Each answers exactly what the maps
 * would; any other URL goes on to the general location.
 */
function classLocations(policy: ServingPolicy): { pattern: string; extensions: string[]; values: HeaderValues }[] {
  const html = new RegExp(policy.htmlPattern, 'i')
  const htmlExtensions = policy.extensions.filter((e) => html.test(`.${e}`))
  const out = []
  if (htmlExtensions.length)
    out.push({
      pattern: `~* ${q(`\\.(?:${htmlExtensions.join('|')})$`)}`,
      extensions: htmlExtensions,
      values: { cacheControl: q(policy.cacheControl.html), useAsDictionary: undefined },
    })
  // Only with the default content-hash rule, which this location's regex spells out.
  const versioned = HASHED_NAME_RULE.extensions.filter((e) => policy.extensions.includes(e))
  if (policy.immutablePattern === hashedNamePattern() && versioned.length)
    out.push({
      pattern: `~ ${q(nginxVersionedAssetPattern(HASH_TOKEN_PCRE, versioned))}`,
      extensions: versioned,
      values: { cacheControl: q(policy.cacheControl.immutable), useAsDictionary: nginxUseAsDictionaryFromCaptures },
    })
  return out
}

function indent(lines: string[], by = '    '): string[] {
  return lines.map((l) => (l ? `${by}${l}` : l))
}

function stage(n: NginxNames, name: string, body: string[]): string[] {
  return [`location ~ ${q(n.stagePattern(name))} {`, ...indent(['internal;', ...body]), '}']
}

/**
 * The internal stage locations: one per coding in the order of preference, then the original
 * (`o`) and the last resort (`d`).
 */
function stageLocations(n: NginxNames, policy: ServingPolicy, root: string, flavour: FlavourEntry): string[] {
  const url = n.v('url')
  const stages: string[] = []
  for (let i = 1; i <= 3; i++) {
    if (i > policy.codings.length) break
    stages.push(
      ...stage(n, String(i), [
        ...flavour.stageOff,
        `alias ${q(`${root}${url}${n.v(`s${i}`)}`)};`,
        `error_page 404 = ${n.stage('')}${n.v(`n${i}`)}${n.v('tail')};`,
        ...headers(n, n.v(`ce${i}`)),
      ]),
    )
  }
  stages.push(
    ...stage(n, 'o', [
      ...flavour.stageOff,
      `alias ${q(`${root}${url}`)};`,
      `error_page 404 = ${n.stage('d')}${n.v('tail')};`,
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
  return stages
}

export function compressibleLocation(
  n: NginxNames,
  policy: ServingPolicy,
  root: string,
  flavour: FlavourEntry,
): string[] {
  const url = n.v('url')
  const stages = stageLocations(n, policy, root, flavour)
  const settings = [
    'gzip off;',
    'recursive_error_pages on;',
    '# A missing variant is the usual case for small files, not an error worth a log line.',
    'log_not_found off;',
  ]
  const shared = [...typesBlock(policy), ...settings]
  const location = (pattern: string, types: string[], values: HeaderValues): string[] => [
    `location ${pattern} {`,
    ...indent([...types, ...settings, `set ${url} $uri;`, ...flavour.entry(values)]),
    '}',
  ]
  return [
    '# HTML pages and content-hashed versioned assets first: their headers need no class map.',
    ...classLocations(policy).flatMap((c) => [...location(c.pattern, typesBlock(policy, c.extensions), c.values), '']),
    `# Every compressible type: its own Content-Type on the sidecars; ${policy.codings.join(', ')} in that order of preference.`,
    ...location(`~* ${q(`\\.(?:${policy.extensions.join('|')})$`)}`, typesBlock(policy), mapped(n)),
    '',
    '# The stages, under a prefix location of their own: a prefix match needs no regex, and `^~`',
    '# keeps these URIs from the regex locations; so the usual request never tests the stages.',
    `location ^~ ${n.stage('')} {`,
    ...indent(['internal;', ...shared, '', ...stages]),
    '}',
  ]
}
