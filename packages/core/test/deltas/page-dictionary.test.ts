// The page dictionary: built without a system binary, useful on pages it never saw, linked from
// every page with a relative href (once), and page deltas written against it (and against the
// previous build's dictionary, for visitors who hold that one).
import { access, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeWithDictionary, encodeWithDictionary } from '../../src/codecs/dictionary.js'
import { encodeBuffer } from '../../src/codecs/encode.js'
import { buildDictionary } from '../../src/deltas/dictionary-builder.js'
import { preparePageDictionary } from '../../src/deltas/page-dictionary.js'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import { DELTA_RETENTION_SECONDS, dictionaryLifetime } from '../../src/http/cache-policy.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { compress as compressDirectory } from '../../src/run/compress.js'

const WORDS =
  'the of and to in is for that with as on by this are from be or an it at which you can not have more use'.split(' ')
function pageOf(n: number, edition = ''): string {
  let seed = n + 1
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const nav = Array.from(
    { length: 80 },
    (_, i) => `<li><a href="/docs/page-${i}/">Page ${i} ${WORDS[i % WORDS.length]}</a></li>`,
  ).join('\n')
  const text = Array.from(
    { length: 4 },
    () => `<p>${Array.from({ length: 40 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}.</p>`,
  ).join('\n')
  return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${n}</title></head><body><nav><ul>${nav}</ul></nav><main><h1>Page ${n}${edition}</h1>${text}</main><footer>Shared footer of every page.</footer></body></html>\n`
}

describe('buildDictionary', () => {
  it('is deterministic, within its size, and shrinks pages it was not built from', async () => {
    const train = Array.from({ length: 40 }, (_, i) => Buffer.from(pageOf(i * 2)))
    const held = Array.from({ length: 10 }, (_, i) => Buffer.from(pageOf(i * 2 + 1)))
    const dictionary = buildDictionary(train, { size: 16384 })
    expect(dictionary.byteLength).toBeLessThanOrEqual(16384)
    expect(dictionary.byteLength).toBeGreaterThan(8192)
    expect(buildDictionary(train, { size: 16384 }).equals(dictionary)).toBe(true)
    let br = 0
    let dcb = 0
    for (const page of held) {
      br += (await encodeBuffer('brotli', page, 11)).byteLength
      const body = await encodeWithDictionary('dcb', page, dictionary)
      expect((await decodeWithDictionary('dcb', body, dictionary)).equals(page)).toBe(true)
      dcb += body.byteLength
    }
    expect(dcb).toBeLessThan(br * 0.4)
  })

  it('learns from pages shorter than a segment, and from any size below one', async () => {
    // Pages under 1 KB with 4 KB segments: each chosen window spans several pages.
    const short = (n: number): Buffer =>
      Buffer.from(pageOf(n).replace(/<nav>.*<\/nav>/s, '<nav>Docs · Guide · API</nav>'))
    const train = Array.from({ length: 60 }, (_, i) => short(i * 2))
    const held = Array.from({ length: 10 }, (_, i) => short(i * 2 + 1))
    expect(train[0]!.byteLength).toBeLessThan(1024)
    for (const [size, segment] of [
      [2048, undefined],
      [16384, 4096],
    ] as const) {
      const dictionary = buildDictionary(train, { size, segment })
      expect(dictionary.byteLength).toBeGreaterThan(size / 2)
      expect(dictionary.byteLength).toBeLessThanOrEqual(size)
      let br = 0
      let dcb = 0
      for (const page of held) {
        br += (await encodeBuffer('brotli', page, 11)).byteLength
        const body = await encodeWithDictionary('dcb', page, dictionary)
        expect((await decodeWithDictionary('dcb', body, dictionary)).equals(page)).toBe(true)
        dcb += body.byteLength
      }
      expect(dcb).toBeLessThan(br)
    }
  })

  it('gives small pages that share a template (redirect pages) a delta smaller than their brotli', async () => {
    // Whole pages with their navigation, and redirect pages of about 1.5 KB among them: the
    // navigation fills the segments; the redirects' own template gets a small segment in front.
    const redirect = (n: number): Buffer =>
      Buffer.from(
        `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting…</title>\n<meta http-equiv="refresh" content="0; URL=../page-${n}/">\n<link rel="canonical" href="../page-${n}/">\n</head>\n<body>\n<p>Redirecting to <a href="../page-${n}/">../page-${n}/</a>.</p>\n<p>This page moved: the documentation is updated with each release, and the page you looked for is now part of another chapter. ${'Update your bookmarks and links to the new address. '.repeat(12)}</p>\n<script>window.location.replace("../page-${n}/" + window.location.hash);</script>\n</body>\n</html>\n`,
      )
    // A sidebar larger than the dictionary, the same on every whole page and hardly repetitive:
    // whole pages could fill the dictionary on their own.
    let seed = 7
    const letter = (): string => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return String.fromCharCode(97 + (seed % 26))
    }
    const toc = Array.from(
      { length: 1200 },
      (_, i) => `<li><a href="/book/${i}.html">${Array.from({ length: 10 }, letter).join('')}</a></li>`,
    ).join('')
    const whole = (n: number): Buffer => Buffer.from(pageOf(n).replace('<nav>', `<nav><ol>${toc}</ol>`))
    const pages = Array.from({ length: 160 }, (_, i) => (i % 3 === 0 ? redirect(i) : whole(i)))
    const train = pages.filter((_, i) => i % 2 === 0)
    const held = pages.filter((_, i) => i % 2 === 1 && i % 3 === 0)
    expect(held[0]!.byteLength).toBeLessThan(2048)
    const dictionary = buildDictionary(train, { size: 8192 })
    expect(dictionary.byteLength).toBeLessThanOrEqual(8192)
    for (const page of held) {
      const br = (await encodeBuffer('brotli', page, 11)).byteLength
      const body = await encodeWithDictionary('dcb', page, dictionary)
      expect((await decodeWithDictionary('dcb', body, dictionary)).equals(page)).toBe(true)
      // The 36-byte dcb header included.
      expect(36 + body.byteLength).toBeLessThan(br)
    }
  })

  it('returns the samples themselves when they fit, and nothing without samples', () => {
    expect(
      buildDictionary([Buffer.from('a'.repeat(2000)), Buffer.from('b'.repeat(2000))], { size: 65536 }).byteLength,
    ).toBe(4000)
    expect(buildDictionary([], { size: 65536 }).byteLength).toBe(0)
  })
})

describe('page dictionary', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    site = await tempDir('pages')
  })
  afterEach(async () => {
    await site.remove()
  })

  async function writePages(edition: string): Promise<void> {
    for (let n = 0; n < 12; n++) {
      const path = join(site.path, n === 0 ? 'index.html' : `docs/page-${n}/index.html`)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, pageOf(n, edition))
    }
  }

  it('a rerun on the pages the last run linked reads its dictionary back instead of building it again', async () => {
    await writePages('')
    const cache = join(site.path, '..', `${site.path.split('/').pop()}-cache`)
    const options = resolveDeltaOptions({ pages: true })
    const build = async () => {
      const prepared = await preparePageDictionary(site.path, options.pageDictionaryBytes)
      const { manifest } = await compressDirectory(site.path, { cache })
      await writeDeltas(site.path, manifest, options, { cacheDir: cache })
      return prepared!
    }
    const first = await build()
    expect(first.reused).toBe(false)
    const bytes = await readFile(join(site.path, first.path))
    const second = await build()
    expect(second).toMatchObject({ path: first.path, reused: true, linked: 0 })
    // A dictionary file that is not what the manifest records is built again, and restored.
    await writeFile(join(site.path, first.path), 'not the dictionary')
    expect(await preparePageDictionary(site.path, options.pageDictionaryBytes)).toMatchObject({
      path: first.path,
      reused: false,
    })
    expect((await readFile(join(site.path, first.path))).equals(bytes)).toBe(true)
    // Another size, or an edited page: built again.
    expect(await preparePageDictionary(site.path, 4096)).toMatchObject({ reused: false })
    await preparePageDictionary(site.path, options.pageDictionaryBytes)
    await build()
    await writeFile(join(site.path, 'docs/page-3/index.html'), pageOf(3, ' (edited)'))
    const edited = await preparePageDictionary(site.path, options.pageDictionaryBytes)
    expect(edited).toMatchObject({ reused: false })
    expect(edited!.path).not.toBe(first.path)
  })

  it('links every page to its content-hashed name and writes page deltas that decode', async () => {
    await writePages('')
    const cache = join(site.path, '..', `${site.path.split('/').pop()}-cache`)
    const options = resolveDeltaOptions({ pages: true })
    const first = await preparePageDictionary(site.path, options.pageDictionaryBytes)
    expect(first).toMatchObject({ pages: 12, linked: 12 })
    const name = first!.path
    expect(name).toMatch(/^preencode-dictionary-[0-9a-f]{16}\.txt$/)
    expect(await readFile(join(site.path, 'index.html'), 'utf8')).toContain(
      `<head><link rel="compression-dictionary" href="${name}">`,
    )
    expect(await readFile(join(site.path, 'docs/page-3/index.html'), 'utf8')).toContain(`href="../../${name}"`)
    // A rerun on the same pages: the same dictionary, name and links.
    expect(await preparePageDictionary(site.path, options.pageDictionaryBytes)).toMatchObject({ path: name, linked: 0 })

    const { manifest } = await compressDirectory(site.path, { cache })
    const { manifest: withDeltas, report } = await writeDeltas(site.path, manifest, options, { cacheDir: cache })
    const dictionaryEntry = withDeltas.files.find((f) => f.path === name)!
    expect(dictionaryEntry.useAsDictionary).toBe('*')
    expect(dictionaryEntry.matchDest).toEqual(['document'])
    // Fresh for a year (RFC 9842 §2.2.2: a stored dictionary is used only while fresh), not an hour.
    expect(dictionaryEntry.cacheClass).toBe('immutable')
    expect(dictionaryEntry.cacheControl).toBe('public, max-age=31536000, immutable')
    const dictionary = await readFile(join(site.path, name))
    const page = withDeltas.files.find((f) => f.path === 'docs/page-3/index.html')!
    for (const delta of page.deltas!) {
      expect(
        (await decodeWithDictionary(delta.encoding, await readFile(join(site.path, delta.path)), dictionary)).equals(
          await readFile(join(site.path, page.path)),
        ),
      ).toBe(true)
    }
    expect(report.pages).toHaveLength(12)
    const br = report.pages.reduce((t, p) => t + p.brotliBytes, 0)
    expect(report.pages.reduce((t, p) => t + p.deltaBytes, 0)).toBeLessThan(br * 0.4)

    // Next build with edited pages: a new name the links follow, the old file gone from the root,
    // deltas against the new dictionary and against the previous one (visitors still hold it).
    await writePages(' (second edition)')
    const second = await preparePageDictionary(site.path, options.pageDictionaryBytes)
    expect(second!.path).not.toBe(name)
    await expect(access(join(site.path, name))).rejects.toThrow()
    expect(await readFile(join(site.path, 'docs/page-3/index.html'), 'utf8')).toContain(
      `<head><link rel="compression-dictionary" href="../../${second!.path}">`,
    )
    const again = await writeDeltas(site.path, (await compressDirectory(site.path, { cache })).manifest, options, {
      cacheDir: cache,
    })
    expect(again.manifest.files.filter((f) => f.useAsDictionary === '*').map((f) => f.path)).toEqual([second!.path])
    const next = again.manifest.files.find((f) => f.path === 'docs/page-3/index.html')!
    expect(new Set(next.deltas!.map((d) => d.dictionary)).size).toBe(2)
    const old = next.deltas!.filter((d) => d.dictionaryPath.startsWith(name))
    expect(old.length).toBeGreaterThan(0)
    for (const delta of old) {
      expect(
        (
          await decodeWithDictionary(delta.encoding, await readFile(join(site.path, delta.path)), dictionary)
        ).toString(),
      ).toContain('(second edition)')
    }
  })
})

describe('dictionaryLifetime (RFC 9842 §2.2.2: a dictionary is used while fresh or within stale-while-revalidate)', () => {
  it.each([
    ['public, max-age=31536000, immutable', 31536000],
    ['public, max-age=3600', 3600],
    ['max-age=600, stale-while-revalidate=86400', 87000],
    ['no-cache', 0],
    ['public, max-age=3600, no-store', 0],
    ['public', 0],
    ['Max-Age="120"', 120],
  ])('%s -> %i s', (cacheControl, seconds) => {
    expect(dictionaryLifetime(cacheControl)).toBe(seconds)
  })

  it('the retention every announced response must cover is the content-hashed class: a year', () => {
    expect(DELTA_RETENTION_SECONDS).toBe(31536000)
    expect(dictionaryLifetime('public, max-age=3600')).toBeLessThan(DELTA_RETENTION_SECONDS)
  })
})

describe('the page dictionary stays opt-in', () => {
  it('deltas are on by default, the page dictionary is not', () => {
    expect(resolveDeltaOptions().pages).toBe(false)
    expect(resolveDeltaOptions({ pages: true }).pages).toBe(true)
  })
})
