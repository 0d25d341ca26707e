/**
 * The http-context `map`s that turn Accept-Encoding into what the locations need, from the
 * regexes of `shared/accept-regex.ts` (q-values, whole tokens, `x-gzip`, `*`):
 * `$P_ok_b/z/g` (acceptable or not), the suffixes `$P_s1..3` the stages open (the acceptable
 * codings in the fixed order of preference), the next stage after each miss, and
 * Content-Encoding per stage. The plain lists browsers send are exact keys of `$P_ae`, so the
 * usual request runs no regex (docs/servers/nginx.md, Speed).
 */
import { ALL_ENCODINGS } from '@preencode/core'
import type { Encoding } from '../http/negotiate.js'
import { acceptPattern, refusePattern } from '../shared/accept-regex.js'
import { CODING_LETTER } from '../shared/coding-letters.js'
import { type ServingPolicy, SUFFIX } from '../shared/policy.js'
import { type NginxNames, nginxString as q } from './names.js'

/** The tokens of the fast path: what browsers and common HTTP clients list. */
const PLAIN_TOKENS = ['gzip', 'deflate', 'br', 'zstd'] as const

/**
 * Every list of distinct PLAIN_TOKENS (any order, `", "` or `","` between them): all named with
 * no q-value, so all accepted, and no `*`.
 */
function plainAcceptLists(): { key: string; br: boolean; zstd: boolean; gzip: boolean }[] {
  const lists: string[][] = []
  const grow = (list: string[]): void => {
    if (list.length > 0) lists.push(list)
    for (const token of PLAIN_TOKENS) if (!list.includes(token)) grow([...list, token])
  }
  grow([])
  return lists.flatMap((list) =>
    [', ', ',']
      .filter((_, i) => i === 0 || list.length > 1)
      .map((sep) => ({
        key: list.join(sep),
        br: list.includes('br'),
        zstd: list.includes('zstd'),
        gzip: list.includes('gzip'),
      })),
  )
}

/** `$P_ae`: `<ok_b><ok_z><ok_g>`, plus `:<ae_br>:<plain gzip>` for the modules flavour. */
function aeCode(modules: boolean, br: boolean, zstd: boolean, gzip: boolean): string {
  const ok = `${+br}${+zstd}${+gzip}`
  return modules ? `${ok}:${br ? '1' : ''}:${+gzip}` : ok
}

export function acceptMaps(n: NginxNames, modules: boolean): string[] {
  const lines = ['# Accept-Encoding, per RFC 9110 §12.5.3: "" = not named, 0 = refused (q=0), 1 = accepted.']
  const names: [Encoding | '*', string][] = [...ALL_ENCODINGS.map((e): [Encoding, string] => [e, e]), ['*', 'star']]
  for (const [coding, name] of names) {
    lines.push(
      `map $http_accept_encoding ${n.v(`ae_${name}`)} {`,
      '    default "";',
      `    ${q(`~*${refusePattern(coding)}`)} 0;`,
      `    ${q(`~*${acceptPattern(coding)}`)} 1;`,
      '}',
    )
  }
  for (const [coding, name] of names.slice(0, 3)) {
    // Named and accepted, or not named while `*` is accepted.
    lines.push(
      `map "${n.v(`ae_${name}`)}:${n.v('ae_star')}" ${n.v(`ok_${CODING_LETTER[coding as Encoding]}`)} {`,
      '    default 0;',
      '    "~^1:" 1;',
      '    ":1" 1;',
      '}',
    )
  }
  if (modules) {
    // What nginx's own gzip_static sees: the plain `gzip` token (it knows neither x-gzip nor `*`).
    lines.push(
      `map $http_accept_encoding ${n.v('ae_gzip_plain')} {`,
      '    default 0;',
      `    ${q(`~*${refusePattern('gzip').replace('(?:x-)?gzip', 'gzip')}`)} 0;`,
      `    ${q(`~*${acceptPattern('gzip').replace('(?:x-)?gzip', 'gzip')}`)} 1;`,
      '}',
      `map $http_range ${n.v('range')} {`,
      '    default 1;',
      '    "" 0;',
      '}',
    )
  }
  const okNames = ALL_ENCODINGS.map((coding) => `ok_${CODING_LETTER[coding]}`)
  const flags = okNames.map((name) => n.v(name)).join('')
  const slow = modules ? `"${flags}:${n.v('ae_br')}:${n.v('ae_gzip_plain')}"` : `"${flags}"`
  lines.push(
    `# Accept-Encoding as one code: ${okNames.join(' ')}${modules ? ':ae_br:ae_gzip_plain' : ''} (the maps above), looked up`,
    '# directly for lists of plain tokens without q-values; any other value takes the regex maps.',
    `map $http_accept_encoding ${n.v('ae')} {`,
    `    default ${slow};`,
    ...plainAcceptLists().map(({ key, br, zstd, gzip }) => `    ${q(key)} ${q(aeCode(modules, br, zstd, gzip))};`),
    '}',
    '',
  )
  return lines
}

/** One value `$P_ae` can take: the acceptable-flags, and for modules what the modules see. */
export interface AeValue {
  key: string
  ok: Record<Encoding, boolean>
  /** modules: `$P_ae_br` ('' not named, '0' refused, '1' accepted) and the plain gzip token. */
  aeBr: '' | '0' | '1'
  plainGzip: boolean
}

/** Every value `$P_ae` can take (8 in stock; 48 in modules), so the maps over it use exact keys. */
export function aeValues(modules: boolean): AeValue[] {
  const values: AeValue[] = []
  for (let i = 0; i < 8; i++) {
    const ok = { br: (i & 4) !== 0, zstd: (i & 2) !== 0, gzip: (i & 1) !== 0 }
    const flags = `${+ok.br}${+ok.zstd}${+ok.gzip}`
    if (!modules) {
      values.push({ key: flags, ok, aeBr: '', plainGzip: false })
      continue
    }
    for (const aeBr of ['', '0', '1'] as const) {
      for (const plainGzip of [false, true]) values.push({ key: `${flags}:${aeBr}:${+plainGzip}`, ok, aeBr, plainGzip })
    }
  }
  return values
}

/**
 * `$P_s1..3`: the suffixes of the acceptable codings in the order they are tried; `$P_n1..3`:
 * the stage after a miss (`2`, `3`, `o` = the original, `d` = decode or 404); `$P_ce1..3`:
 * Content-Encoding of each stage. Keyed by `$P_ae`: the acceptable codings in the fixed order of
 * preference, whatever a file's own sizes (core `variantsToWrite`).
 */
export function stageMaps(n: NginxNames, policy: ServingPolicy, modules: boolean): string[] {
  const slots: [string, string][][] = [[], [], []]
  const next: [string, string][][] = [[], [], []]
  for (const { ok, key } of aeValues(modules)) {
    const accepted = policy.codings.filter((e) => ok[e])
    for (let i = 0; i < 3; i++) {
      const coding = accepted[i]
      if (coding) slots[i]!.push([key, SUFFIX[coding]])
      // After stage i+1: the next acceptable coding, else the original (or, when this stage
      // already was the original, decode/404).
      const after = accepted[i + 1] ? String(i + 2) : coding ? 'o' : 'd'
      if (after !== (i === 0 ? 'd' : 'o')) next[i]!.push([key, after])
    }
  }
  const source = n.v('ae')
  const out = [
    '# What each stage opens (a suffix; "" = the original), where a miss goes next, and its Content-Encoding.',
  ]
  for (let i = 0; i < 3; i++) {
    out.push(
      `map ${source} ${n.v(`s${i + 1}`)} {`,
      '    default "";',
      ...slots[i]!.map(([key, suffix]) => `    ${q(key)} ${suffix};`),
      '}',
      `map ${source} ${n.v(`n${i + 1}`)} {`,
      `    default ${i === 0 ? 'd' : 'o'};`,
      ...next[i]!.map(([key, value]) => `    ${q(key)} ${value};`),
      '}',
      `map ${n.v(`s${i + 1}`)} ${n.v(`ce${i + 1}`)} {`,
      '    default "";',
      ...policy.codings.map((e) => `    ${SUFFIX[e]} ${e};`),
      '}',
    )
  }
  out.push(
    '# What a stage URI ends in: the extension alone (`/_.js`), which is all its `types {}` needs; the',
    '# URL itself would be cut at a `?` in a file name (error_page splits there). The locations that',
    '# reach a stage only match URLs ending in an extension; evaluated only on the way to a stage.',
    `map ${n.v('url')} ${n.v('tail')} {`,
    '    default /_;',
    `    ${q(`~(?<${n.prefix}_ext>\\.[A-Za-z0-9]+)$`)} /_$${n.prefix}_ext;`,
    '}',
    '',
  )
  return out
}
