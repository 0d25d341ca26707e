// The nginx config answers HTML pages and content-hashed versioned assets from locations of
// their own, with Cache-Control and Use-As-Dictionary written in (no class map). Those locations
// must send exactly what the class maps send for the same URL: checked here on the generated
// text, over crafted and generated names, with the regexes nginx itself would run.
import { chmod } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '@preencode/core'
import { nginxConfig } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELTA_RETENTION_SECONDS, dictionaryLifetime } from '../../../core/src/http/cache-policy.js'
import { buildFixtureSite } from '../fixture.ts'

/** An nginx double-quoted string's value. */
const unquote = (s: string): string => s.slice(1, -1).replace(/\\(["\\])/g, '$1')
/** An nginx `~`/`~*` regex as a JS RegExp (the patterns use no PCRE-only syntax). */
const regex = (op: string, source: string): RegExp => new RegExp(source, op === '~*' ? 'i' : '')

interface Rule {
  re: RegExp
  value: string
}

/** A `map $preencode_url $name { ... }` block's regex entries, in order, and its default. */
function mapRules(config: string, name: string): { rules: Rule[]; fallback: string } {
  const start = config.indexOf(`map $preencode_url $preencode_${name} {`)
  const body = config.slice(start, config.indexOf('\n}', start)).split('\n').slice(1)
  const rules: Rule[] = []
  let fallback = ''
  for (const line of body.map((l) => l.trim())) {
    const entry = /^"(~\*?)((?:[^"\\]|\\.)*)" (.*);$/.exec(line)
    if (entry) rules.push({ re: regex(entry[1]!, unquote(`"${entry[2]!}"`)), value: entry[3]! })
    const def = /^default (.*);$/.exec(line)
    if (def) fallback = def[1]!
  }
  return { rules, fallback }
}

/** What a map sends for a URL, and the named captures of the regex that decided. */
function lookup(map: ReturnType<typeof mapRules>, url: string): { value: string; groups?: Record<string, string> } {
  for (const rule of map.rules) {
    const m = rule.re.exec(url)
    if (m) return { value: rule.value, groups: m.groups }
  }
  return { value: map.fallback }
}

/** The locations before the general one: their regex and the header values they write in. */
function classLocations(config: string): { re: RegExp; cacheControl: string; useAsDictionary?: string }[] {
  const out = []
  const blocks = config.split('\n    location ').slice(1)
  for (const block of blocks) {
    const head = /^(~\*?) ("(?:[^"\\]|\\.)*") \{/.exec(block)
    const cc = /add_header Cache-Control ("[^"$]*");/.exec(block)
    if (!head || !cc) continue
    const uad = /add_header Use-As-Dictionary ('[^']*');/.exec(block)
    out.push({ re: regex(head[1]!, unquote(head[2]!)), cacheControl: cc[1]!, useAsDictionary: uad?.[1] })
  }
  return out
}

/** Names a site could have: versioned-looking and not, every separator, odd characters. */
function names(): string[] {
  let seed = 7
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  const pick = (chars: string, n: number): string => Array.from({ length: n }, () => chars[rand(chars.length)]).join('')
  const token = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'
  const lower = 'abcdefghijklmnopqrstuvwxyz_-'
  const extensions = [
    'js',
    'mjs',
    'css',
    'json',
    'svg',
    'wasm',
    'map',
    'txt',
    'html',
    'htm',
    'xhtml',
    'xml',
    'JS',
    'Html',
  ]
  const out = [
    'assets/app-Bx3k9LmQ.js',
    'assets/lib-abcdefgh.js',
    'assets/big-0123456789abcdef0123.mjs',
    'assets/x--Bx3k9LmQ.js',
    'assets/a b-Bx3k9LmQ.js',
    'assets/UPPER-Bx3k9LmQ.JS',
    'assets/style.0123abcd.css',
    'assets/v-Bx3k9LmQ.css.txt',
    'preencode-dictionary.txt',
    'preencode-dictionary-0123456789abcdef.txt',
    'index.html',
    'Page.HTML',
    'a.xhtml',
    'dir/',
  ]
  for (let i = 0; i < 20_000; i++) {
    const prefix = pick(`${token}.~ `, 1 + rand(10))
    const sep = '-._~'[rand(4)]!
    const hash =
      rand(3) === 0 ? pick('0123456789abcdef', 14 + rand(6)) : rand(2) === 0 ? pick(lower, 8) : pick(token, 7 + rand(3))
    out.push(`${rand(2) ? 'assets/' : ''}${prefix}${sep}${hash}.${extensions[rand(extensions.length)]}`)
  }
  return out
}

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest
beforeAll(async () => {
  dir = await tempDir('class-locations')
  await chmod(dir.path, 0o755)
  manifest = await buildFixtureSite(join(dir.path, 'site'))
})
afterAll(() => dir.remove())

describe.each(['stock', 'modules'] as const)('nginx %s: the class locations answer like the maps', (flavor) => {
  it('HTML pages and content-hashed versioned assets, and nothing else', () => {
    const config = nginxConfig(manifest, { root: '/srv/site', flavor })
    const cc = mapRules(config, 'cc')
    const uad = mapRules(config, 'use_as_dictionary')
    const locations = classLocations(config)
    expect(locations).toHaveLength(2)
    const served = new Set<string>()
    for (const name of names()) {
      const url = `/${name}`
      const location = locations.find((l) => l.re.test(url))
      if (!location) continue
      served.add(location.cacheControl)
      expect(location.cacheControl, url).toBe(lookup(cc, url).value)
      const expected = lookup(uad, url)
      if (!location.useAsDictionary) {
        expect(expected.value, url).toBe('""')
        continue
      }
      expect(expected.value, url).toBe(location.useAsDictionary)
      // The value is built from the captures: the location's must be the map's.
      expect(location.re.exec(url)?.groups, url).toEqual(expected.groups)
    }
    // Both locations took part (the names reach both classes).
    expect(served.size).toBe(2)
  })

  it('a URL the maps announce as a dictionary is in the immutable class (fresh as long as its deltas are kept)', () => {
    const config = nginxConfig(manifest, { root: '/srv/site', flavor })
    const cc = mapRules(config, 'cc')
    const uad = mapRules(config, 'use_as_dictionary')
    let announced = 0
    for (const name of [...names(), 'assets/lib-abcdefgh.js', 'assets/lib-abcdefgH.css']) {
      const url = `/${name}`
      if (lookup(uad, url).value === '""') continue
      announced++
      expect(dictionaryLifetime(unquote(lookup(cc, url).value)), url).toBeGreaterThanOrEqual(DELTA_RETENTION_SECONDS)
    }
    expect(announced).toBeGreaterThan(1000)
  })

  it('no location before the delta location takes a delta URL (it comes after them)', () => {
    const config = nginxConfig(manifest, { root: '/srv/site', flavor })
    const deltaAt = config.search(/\n {4}location ~ "[^\n]*\\\\\.dict\//)
    expect(deltaAt).toBeGreaterThan(0)
    const before = [...config.slice(0, deltaAt).matchAll(/\n {4}location (~\*?) ("(?:[^"\\]|\\.)*") \{/g)]
    expect(before.length).toBeGreaterThanOrEqual(3)
    const id = 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE='
    for (const url of [`/assets/app-Bx3k9LmQ.js.dict/${id}.js.dcb`, `/index.html.dict/${id}.html.dcz`]) {
      for (const [, op, pattern] of before)
        expect(regex(op!, unquote(pattern!)).test(url), `${pattern} ${url}`).toBe(false)
    }
  })

  it("takes for a delta only the exact shape of one, never a user's own my.dict/ folder (issue 29)", () => {
    const config = nginxConfig(manifest, { root: '/srv/site', flavor })
    const line = config.slice(config.search(/\n {4}location ~ "[^\n]*\\\\\.dict\//)).split('\n')[1]!
    const [, op, pattern] = /location (~\*?) ("(?:[^"\\]|\\.)*") \{/.exec(line)!
    const delta = regex(op!, unquote(pattern!))
    const id = 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE='
    for (const url of [`/assets/app-Bx3k9LmQ.js.dict/${id}.js.dcb`, `/a/index.html.dict/AQ/EB/${id.slice(4)}.html.dcz`])
      expect(delta.test(url), url).toBe(true)
    for (const url of [
      '/my.dict/notes.dcb',
      '/my.dict/page.html',
      '/my.dict/app.js.dcb',
      `/my.dict/${id}.dcb`,
      `/app.js.dict/${id}.css.dcb`,
    ])
      expect(delta.test(url), url).toBe(false)
  })
})
