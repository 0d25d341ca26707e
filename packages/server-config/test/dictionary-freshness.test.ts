// Every response a generated config or the middleware announces with Use-As-Dictionary stays
// usable (fresh: RFC 9842 §2.2.2) at least as long as deltas against it are kept
// (DELTA_RETENTION_SECONDS), also under a custom `immutable` rule: the page dictionary is in the
// immutable class whatever the rule, and a hashed name the rule leaves out is not announced.
// Checked on the generated text with the regexes the servers run; the e2e dictionary specs check
// the real headers under the default rule.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { compress as compressDirectory, type Manifest, resolveDeltaOptions, writeDeltas } from '@preencode/core'
import { cacheClassOf, resolveCachePolicy } from '@preencode/core/internal'
import { apacheConfig, nginxConfig } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preparePageDictionary } from '../../core/src/deltas/page-dictionary.js'
import { DELTA_RETENTION_SECONDS, dictionaryLifetime } from '../../core/src/http/cache-policy.js'

const unquote = (s: string): string => s.slice(1, -1).replace(/\\(["\\])/g, '$1')

/** A `map <source> $preencode_<name> { ... }` block: its regex entries in order, and its default. */
function mapOf(config: string, name: string): (key: string) => string {
  const start = config.indexOf(` $preencode_${name} {\n`)
  const body = config.slice(start, config.indexOf('\n}', start)).split('\n').slice(1)
  const rules: { re: RegExp; value: string }[] = []
  let fallback = ''
  for (const line of body.map((l) => l.trim())) {
    const entry = /^"(~\*?)((?:[^"\\]|\\.)*)" (.*);$/.exec(line)
    if (entry) rules.push({ re: new RegExp(unquote(`"${entry[2]!}"`), entry[1] === '~*' ? 'i' : ''), value: entry[3]! })
    const def = /^default (.*);$/.exec(line)
    if (def) fallback = def[1]!
  }
  return (key) => rules.find((r) => r.re.test(key))?.value ?? fallback
}

const CUSTOM = /^\/assets\//
const URLS = [
  '/assets/app-Bx3k9LmQ.js',
  '/assets/lib-abcdefgh.js',
  '/lib-Bx3k9LmQ.js',
  '/vendor/chunk-0123456789abcdef.css',
  '/preencode-dictionary-0123456789abcdef.txt',
  '/preencode-assets-0123456789abcdef.txt',
  '/index.html',
]
/** What a server may announce with the custom rule: the rule's versioned asset and the site's two dictionaries. */
const ANNOUNCED = [
  '/assets/app-Bx3k9LmQ.js',
  '/preencode-dictionary-0123456789abcdef.txt',
  '/preencode-assets-0123456789abcdef.txt',
]

let dir: Awaited<ReturnType<typeof tempDir>>
let manifest: Manifest
let dictionary: string
beforeAll(async () => {
  dir = await tempDir('dictionary-freshness')
  for (let n = 0; n < 4; n++) {
    const path = join(dir.path, n === 0 ? 'index.html' : `p${n}/index.html`)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(
      path,
      `<!doctype html><html><head><title>${n}</title></head><body>${'shared text '.repeat(200)}${n}</body></html>`,
    )
  }
  await mkdir(join(dir.path, 'assets'), { recursive: true })
  await writeFile(join(dir.path, 'assets/app-Bx3k9LmQ.js'), `export const x = 1\n${'// filler\n'.repeat(300)}`)
  const options = resolveDeltaOptions({ pages: true, remember: false })
  dictionary = (await preparePageDictionary(dir.path, 2048))!.path
  const built = await compressDirectory(dir.path, { cache: false, cachePolicy: { immutable: /^assets\// } })
  manifest = (await writeDeltas(dir.path, built.manifest, options, { cacheDir: false })).manifest
})
afterAll(() => dir.remove())

describe('Use-As-Dictionary responses outlive the deltas against them', () => {
  it('core: the page dictionary is immutable whatever the rule; the build announces only such files', () => {
    expect(cacheClassOf(dictionary, resolveCachePolicy({ immutable: /^assets\// }))).toBe('immutable')
    expect(cacheClassOf(dictionary, resolveCachePolicy({ immutable: () => false }))).toBe('immutable')
    const announced = manifest.files.filter((f) => f.useAsDictionary !== undefined)
    expect(announced.map((f) => f.path).sort()).toEqual(['assets/app-Bx3k9LmQ.js', dictionary])
    for (const file of announced)
      expect(dictionaryLifetime(file.cacheControl), file.path).toBeGreaterThanOrEqual(DELTA_RETENTION_SECONDS)
  })

  it.each(['stock', 'modules'] as const)('nginx %s with a custom immutable rule', (flavor) => {
    const config = nginxConfig(manifest, { root: '/srv/site', flavor, immutable: CUSTOM })
    const cc = mapOf(config, 'cc')
    const uad = mapOf(config, 'use_as_dictionary')
    expect(config).toContain('map "$preencode_cc|$preencode_url" $preencode_use_as_dictionary {')
    const announced: string[] = []
    for (const url of URLS) {
      const cacheControl = unquote(cc(url))
      if (uad(`${cacheControl}|${url}`) === '""') continue
      announced.push(url)
      expect(dictionaryLifetime(cacheControl), url).toBeGreaterThanOrEqual(DELTA_RETENTION_SECONDS)
    }
    expect(announced).toEqual(ANNOUNCED)
    expect(uad('public, max-age=31536000, immutable|/preencode-assets-0123456789abcdef.txt')).toBe(`'match="*"'`)
  })

  it('nginx with the default rule keeps the URL-only map (no class lookup on the usual request)', () => {
    expect(nginxConfig(manifest, { root: '/srv/site' })).toContain('map $preencode_url $preencode_use_as_dictionary {')
  })

  it.each(['htaccess', 'vhost'] as const)('Apache %s: announced only when PE_CC is immutable', (form) => {
    const config = apacheConfig(manifest, { form, root: '/srv/site', immutable: CUSTOM })
    const immutable = new RegExp(
      /RewriteCond "%\{REQUEST_URI\}" "(.*)"\nRewriteRule \^ - \[E=PE_CC:immutable\]/.exec(config)![1]!,
    )
    for (const env of ['PE_UAD', 'PE_UADP', 'PE_UADA']) {
      const rule = new RegExp(`RewriteCond "%\\{ENV:PE_CC\\}" =immutable\\nRewriteRule "(.*)" - \\[E=${env}:`).exec(
        config,
      )
      expect(rule, env).toBeTruthy()
      for (const url of URLS) {
        const path = form === 'htaccess' ? url.slice(1) : url
        if (new RegExp(rule![1]!).test(path) && immutable.test(url)) expect(ANNOUNCED).toContain(url)
      }
    }
    expect(immutable.test('/preencode-dictionary-0123456789abcdef.txt')).toBe(true)
    expect(immutable.test('/preencode-assets-0123456789abcdef.txt')).toBe(true)
    expect(config).toContain('Header set Use-As-Dictionary "match=\\"*\\"" env=PE_UADA')
    expect(immutable.test('/lib-Bx3k9LmQ.js')).toBe(false)
  })
})
