import { spawnSync } from 'node:child_process'
import { access, chmod, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type CompressOptions,
  compress as compressDirectory,
  compressDirectory as compressResolved,
  decodeBuffer,
  formatReport,
  isPreencodeError,
  MANIFEST_FILENAME,
  type Manifest,
  readManifest,
  resolveCompressOptions,
} from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CORE_DIST, decodeWithCli, makeSite, put, randomBytesOf, textOf, zstdFrameWindow } from '../fixtures.js'

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  )

/** Checks every variant of the manifest on disk against its original's bytes. */
async function checkVariants(root: string, manifest: Manifest, originals: Map<string, Buffer>): Promise<number> {
  let checked = 0
  for (const file of manifest.files) {
    const original = originals.get(file.path) ?? (await readFile(join(root, file.path)))
    for (const variant of file.variants) {
      const path = join(root, variant.path)
      const bytes = await readFile(path)
      expect(bytes.length, variant.path).toBe(variant.size)
      expect(bytes.length, `${variant.path} must be smaller`).toBeLessThan(original.length)
      expect((await decodeBuffer(variant.encoding, bytes)).equals(original), `${variant.path} via node:zlib`).toBe(true)
      expect(decodeWithCli(variant.format, path).equals(original), `${variant.path} via ${variant.format} CLI`).toBe(
        true,
      )
      // nginx gzip_static serves the sidecar's mtime: it must be the original's.
      const mtime = (await stat(path)).mtimeMs
      expect(Math.abs(mtime - file.mtimeMs), `${variant.path} mtime`).toBeLessThan(1)
      expect(Math.floor(mtime / 1000)).toBe(Math.floor(file.mtimeMs / 1000))
      checked++
    }
  }
  return checked
}

async function snapshot(root: string, manifest: Manifest): Promise<Map<string, Buffer>> {
  const map = new Map<string, Buffer>()
  for (const file of manifest.files) if (file.originalOnDisk) map.set(file.path, await readFile(join(root, file.path)))
  return map
}

describe('compressDirectory', () => {
  let site: Awaited<ReturnType<typeof tempDir>>
  let cacheDir: Awaited<ReturnType<typeof tempDir>>
  let options: CompressOptions
  beforeEach(async () => {
    site = await tempDir('site')
    cacheDir = await tempDir('cache')
    options = { cache: cacheDir.path, concurrency: 2 }
    await makeSite(site.path)
  })
  afterEach(async () => {
    await site.remove()
    await cacheDir.remove()
  })

  it('holds at most 16 MiB of originals at once, or room for one largest file per slot', async () => {
    const MiB = 1024 * 1024
    const chunk = textOf(3 * MiB, 11)
    for (let i = 0; i < 12; i++) await put(site.path, `many/${i}.js`, chunk)
    const quick: CompressOptions = { cache: false, concurrency: 2, formats: ['gzip'], levels: { gzip: 1 } }
    const many = await compressDirectory(site.path, quick)
    // 36 MiB of 3 MiB files: the 16 MiB budget, used (several files at once) and not exceeded.
    expect(many.report.peakBytesInFlight).toBeGreaterThan(6 * MiB)
    expect(many.report.peakBytesInFlight).toBeLessThanOrEqual(16 * MiB)

    // Two files of 9 MiB: the budget grows to 2 x 9 MiB so both slots can have one.
    const big = Buffer.concat([chunk, chunk, chunk])
    await put(site.path, 'big/a.js', big)
    await put(site.path, 'big/b.js', big)
    const large = await compressDirectory(site.path, quick)
    expect(large.report.peakBytesInFlight).toBeGreaterThan(16 * MiB)
    expect(large.report.peakBytesInFlight).toBeLessThanOrEqual(18 * MiB)
    const gz = await readFile(join(site.path, 'big/b.js.gz'))
    expect((await decodeBuffer('gzip', gz)).equals(big)).toBe(true)
  })

  it('writes variants that decode to the originals, with their mtimes, and a manifest', async () => {
    const { manifest, report } = await compressDirectory(site.path, options)
    const originals = await snapshot(site.path, manifest)
    expect(await checkVariants(site.path, manifest, originals)).toBeGreaterThan(20)
    expect(await readManifest(site.path)).toEqual(manifest)

    const byPath = new Map(manifest.files.map((f) => [f.path, f]))
    expect([...byPath.keys()]).toEqual([...byPath.keys()].sort())
    expect(byPath.has(MANIFEST_FILENAME)).toBe(false)
    for (const path of [
      'index.html',
      'about/index.html',
      'assets/app-B7x2Kq9a.js',
      'assets/style-3f2a9c1d.css',
      'data.json',
      'icon.svg',
      '.well-known/security.txt',
      'fonts/face.ttf',
    ]) {
      expect(
        byPath
          .get(path)
          ?.variants.map((v) => v.format)
          .sort(),
        path,
      ).toEqual(['brotli', 'gzip', 'zstd'])
    }
    // Never compressed: already-compressed types, the real archive, tiny files, and incompressible bytes.
    for (const path of ['image.png', 'fonts/face.woff2', 'download.tar.gz', 'small.txt', 'noise.js']) {
      expect(byPath.get(path)?.variants, path).toEqual([])
      for (const ext of ['.gz', '.br', '.zst'])
        expect(await exists(join(site.path, path + ext)), path + ext).toBe(false)
    }
    expect(byPath.get('download.tar.gz')?.contentType).toBe('application/gzip')
    expect(byPath.get('index.html')).toMatchObject({
      cacheClass: 'html',
      cacheControl: 'no-cache',
      contentType: 'text/html; charset=utf-8',
      originalOnDisk: true,
    })
    expect(byPath.get('assets/app-B7x2Kq9a.js')?.cacheClass).toBe('immutable')
    // Smallest first.
    const sizes = byPath.get('index.html')!.variants.map((v) => v.size)
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b))

    expect(report.skipped).toEqual({ excluded: 0, incompressible: 3, 'below-threshold': 1, 'no-saving': 1 })
    expect(report.cache).toMatchObject({ enabled: true, hits: 0, misses: 27 })
    expect(report.variantsWritten).toBe(24)
    expect(report.formats.map((f) => f.format)).toEqual(['brotli', 'zstd', 'gzip'])
    for (const f of report.formats) {
      expect(f.files).toBe(8)
      expect(f.bytesAfter).toBeLessThan(f.bytesBefore)
      expect(f.rejected).toBe(1) // noise.js
    }
    expect(report.largest[0]?.path).toBe('assets/app-B7x2Kq9a.js')
    expect(formatReport(report)).toContain('27 compressed, 0 from cache')
  })

  it('compresses nothing on a second run with unchanged content, and says so', async () => {
    await compressDirectory(site.path, options)
    const { report, manifest } = await compressDirectory(site.path, options)
    expect(report.cache.misses).toBe(0)
    expect(report.cache.hits).toBe(27)
    expect(report.variantsWritten).toBe(0)
    expect(report.variantsUnchanged).toBe(24)
    expect(formatReport(report)).toMatch(/all 27 cached, nothing compressed/)
    await checkVariants(site.path, manifest, await snapshot(site.path, manifest))
  })

  it('reuses cached bytes but rewrites a sidecar that was tampered with', async () => {
    await compressDirectory(site.path, options)
    await writeFile(join(site.path, 'index.html.br'), 'garbage')
    const { report, manifest } = await compressDirectory(site.path, options)
    expect(report.cache.misses).toBe(0)
    expect(report.variantsWritten).toBe(1)
    await checkVariants(site.path, manifest, await snapshot(site.path, manifest))
  })

  it('leaves no stale sidecar after an original changes, shrinks, or is deleted, or a format is dropped', async () => {
    await compressDirectory(site.path, options)
    await put(site.path, 'index.html', `<!doctype html>${textOf(30_000, 99).toString()}`)
    await put(site.path, 'about/index.html', 'now tiny')
    await rm(join(site.path, 'data.json'))
    const { manifest, report } = await compressDirectory(site.path, options)
    expect(report.removed.staleVariants).toBe(6)
    for (const ext of ['.gz', '.br', '.zst']) {
      expect(await exists(join(site.path, `about/index.html${ext}`))).toBe(false)
      expect(await exists(join(site.path, `data.json${ext}`))).toBe(false)
    }
    expect(manifest.files.some((f) => f.path === 'data.json')).toBe(false)
    await checkVariants(site.path, manifest, await snapshot(site.path, manifest))

    const gzipOnly = await compressDirectory(site.path, { ...options, formats: ['gzip'] })
    // 6 files still compressed, each losing its .br and .zst.
    expect(gzipOnly.report.removed.staleVariants).toBe(12)
    for (const file of gzipOnly.manifest.files) {
      expect(await exists(join(site.path, `${file.path}.br`))).toBe(false)
      expect(await exists(join(site.path, `${file.path}.zst`))).toBe(false)
    }
  })

  it('keeps the zstd window at most 8 MiB for a file over 8 MiB at the level the user sets (22)', async () => {
    const block = Buffer.concat([textOf(1024 * 1024, 41), randomBytesOf(256 * 1024, 42)])
    await put(site.path, 'assets/huge.js', Buffer.concat(Array.from({ length: 8 }, () => block)))
    const { manifest } = await compressDirectory(site.path, { ...options, formats: ['zstd'], levels: { zstd: 22 } })
    const huge = manifest.files.find((f) => f.path === 'assets/huge.js')!
    expect(huge.size).toBeGreaterThan(8 * 1024 * 1024)
    const frame = await readFile(join(site.path, 'assets/huge.js.zst'))
    expect(zstdFrameWindow(frame)).toBeLessThanOrEqual(8 * 1024 * 1024)
    expect(
      decodeWithCli('zstd', join(site.path, 'assets/huge.js.zst')).equals(
        await readFile(join(site.path, 'assets/huge.js')),
      ),
    ).toBe(true)
  })

  it('honours include, exclude, threshold and minSaving', async () => {
    await put(site.path, 'notes.custom', textOf(5_000, 31))
    await put(site.path, 'vendor/lib.js', textOf(5_000, 32))
    // As Rollup's createFilter: `include` (globs and RegExps) is the whole set, `exclude` wins.
    const { manifest, report } = await compressDirectory(site.path, {
      ...options,
      include: ['*.custom', /\.html$/, '**/*.js'],
      exclude: ['vendor/**'],
      threshold: 10_000,
      minSaving: 0.5,
    })
    const byPath = new Map(manifest.files.map((f) => [f.path, f]))
    expect(byPath.get('vendor/lib.js')?.variants).toEqual([])
    // Included, but under the 10 kB threshold now.
    expect(byPath.get('notes.custom')?.variants).toEqual([])
    expect(byPath.get('index.html')?.variants.length).toBe(3)
    expect(byPath.get('assets/app-B7x2Kq9a.js')?.variants.length).toBe(3)
    expect(byPath.get('about/index.html')?.variants).toEqual([])
    // Compressible, but outside `include`: left alone, counted as excluded with vendor/lib.js.
    for (const path of ['assets/style-3f2a9c1d.css', 'data.json', 'icon.svg'])
      expect(byPath.get(path)?.variants, path).toEqual([])
    const outside = manifest.files.filter((f) => !/\.(html|js|custom)$/.test(f.path)).length
    expect(report.skipped.excluded).toBe(outside + 1)
    for (const file of manifest.files)
      for (const v of file.variants) expect(v.size).toBeLessThanOrEqual(file.size * 0.5)

    // A type preencode does not list is compressed when `include` names it.
    const included = await compressDirectory(site.path, { ...options, include: '*.custom' })
    expect(included.manifest.files.find((f) => f.path === 'notes.custom')?.variants.length).toBe(3)
    expect(included.manifest.files.filter((f) => f.variants.length > 0).map((f) => f.path)).toEqual(['notes.custom'])
  })

  it('keepOriginals: false deletes originals after their gzip variant, and reruns work both ways', async () => {
    const before = await compressDirectory(site.path, { ...options, keepOriginals: false })
    const compressed = before.manifest.files.filter((f) => f.variants.length > 0)
    expect(compressed.length).toBe(8)
    const originals = new Map<string, Buffer>()
    for (const file of before.manifest.files) {
      if (file.variants.length > 0) {
        expect(file.originalOnDisk).toBe(false)
        expect(await exists(join(site.path, file.path)), file.path).toBe(false)
        originals.set(file.path, await decodeBuffer('gzip', await readFile(join(site.path, `${file.path}.gz`))))
      } else {
        // Nothing to serve it from otherwise: the original stays.
        expect(file.originalOnDisk).toBe(true)
        expect(await exists(join(site.path, file.path)), file.path).toBe(true)
      }
    }
    expect(before.report.originalsRemoved).toEqual({ files: 8, bytes: compressed.reduce((s, f) => s + f.size, 0) })
    await checkVariants(site.path, before.manifest, originals)

    // Rerun on a directory with no originals: they are recovered from the .gz, nothing recompressed.
    const again = await compressDirectory(site.path, { ...options, keepOriginals: false })
    expect(again.manifest.files).toEqual(before.manifest.files)
    expect(again.report.cache.misses).toBe(0)
    expect(again.report.variantsWritten).toBe(0)
    expect(again.report.removed.staleVariants).toBe(0)

    // Back to keepOriginals: true: the originals come back, byte for byte, with their mtimes.
    const restored = await compressDirectory(site.path, options)
    for (const file of compressed) {
      const path = join(site.path, file.path)
      expect((await readFile(path)).equals(originals.get(file.path)!), file.path).toBe(true)
      expect(Math.abs((await stat(path)).mtimeMs - file.mtimeMs)).toBeLessThan(1)
    }
    expect(restored.manifest.files.every((f) => f.originalOnDisk)).toBe(true)
    await checkVariants(site.path, restored.manifest, originals)
  })

  it('takes a copy of resolved options with a field changed (no hidden tag to lose)', async () => {
    const resolved = resolveCompressOptions({ ...options, cache: false })
    // Before: "unknown option `cacheDir`", the copy had lost the WeakSet tag.
    const { manifest } = await compressResolved(site.path, { ...resolved, concurrency: 2 })
    expect(manifest.files.length).toBeGreaterThan(10)
    expect(await checkVariants(site.path, manifest, await snapshot(site.path, manifest))).toBeGreaterThan(10)
  })

  it('rejects bad options with a message naming the option', async () => {
    const bad = async (o: unknown): Promise<string> => {
      const error = await compressDirectory(site.path, o as CompressOptions).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(isPreencodeError(error)).toBe(true)
      return (error as Error).message
    }
    expect(await bad({ formats: ['brotly'] })).toMatch(
      /Unknown format `brotly` in `formats`. Accepted: brotli, zstd, gzip/,
    )
    expect(await bad({ levels: { brotli: 12 } })).toMatch(
      /`levels.brotli` is 12; brotli accepts a whole number from 0 to 11/,
    )
    expect(await bad({ levels: { zstd: 23 } })).toMatch(/`levels.zstd` is 23/)
    expect(await bad({ keepOriginals: false, formats: ['brotli'] })).toMatch(
      /`keepOriginals` is false, which needs `gzip` in `formats`/,
    )
    // Nothing was written before validation failed.
    expect(await exists(join(site.path, MANIFEST_FILENAME))).toBe(false)
  })

  it('rejects a missing directory, and a file given as the directory, naming the path', async () => {
    const missing = join(site.path, 'nope')
    await expect(compressDirectory(missing, options)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringContaining(missing),
    })
    const file = join(site.path, 'index.html')
    await expect(compressDirectory(file, options)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringContaining(`${file} is not a directory`),
    })
  })

  it('rejects an unreadable file naming it (a chmod 000 file read by an unprivileged child process)', async () => {
    // Tests run as root, and root reads a chmod 000 file anyway; so the run happens in a child
    // process with uid/gid of `nobody`, where the permission bits are real.
    const secret = join(site.path, 'assets', 'secret.js')
    await put(site.path, 'assets/secret.js', textOf(5_000))
    await chmod(secret, 0o000)
    for (const path of [
      site.path,
      join(site.path, 'assets'),
      join(site.path, 'about'),
      join(site.path, 'fonts'),
      join(site.path, '.well-known'),
    ])
      await chmod(path, 0o777)
    const script = `
      const { compress: compressDirectory } = await import(${JSON.stringify(CORE_DIST)})
      try { await compressDirectory(${JSON.stringify(site.path)}, { cache: false }); console.log('no error') }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
    })
    expect(child.stderr).toBe('')
    const result = JSON.parse(child.stdout) as { code: string; message: string }
    expect(result.code).toBe('BAD_INPUT')
    expect(result.message).toContain(`Cannot read ${secret}: permission denied`)
  })

  it('ignores a dangling symlink (tinyglobby does not list it) and does not follow it', async () => {
    await symlink(join(site.path, 'nowhere.js'), join(site.path, 'dangling.js'))
    const { manifest } = await compressDirectory(site.path, options)
    expect(manifest.files.some((f) => f.path === 'dangling.js')).toBe(false)
  })

  it('reports progress for every file and warns about a broken previous manifest', async () => {
    await writeFile(join(site.path, MANIFEST_FILENAME), '{ not json')
    const warnings: string[] = []
    const seen: number[] = []
    const totals = new Set<number>()
    const { manifest } = await compressDirectory(site.path, options, {
      logger: { info() {}, warn: (m) => warnings.push(m) },
      onProgress: (done, total) => {
        seen.push(done)
        totals.add(total)
      },
    })
    expect([...totals]).toEqual([manifest.files.length])
    expect(seen.sort((a, b) => a - b)).toEqual(manifest.files.map((_, i) => i + 1))
    expect(warnings.join('\n')).toMatch(/ignoring the previous manifest/)
  })

  it('goes on with a warning when the cache cannot be written', async () => {
    const blocked = join(cacheDir.path, 'a-file')
    await writeFile(blocked, 'in the way')
    const warnings: string[] = []
    const { manifest, report } = await compressDirectory(
      site.path,
      { ...options, cache: blocked },
      { logger: { info() {}, warn: (m) => warnings.push(m) } },
    )
    expect(report.variantsWritten).toBe(24)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`cannot write to the cache at ${blocked}`)
    await checkVariants(site.path, manifest, await snapshot(site.path, manifest))
  })

  it('stops when the signal aborts', async () => {
    const controller = new AbortController()
    controller.abort(new Error('user pressed ctrl-c'))
    await expect(compressDirectory(site.path, options, { signal: controller.signal })).rejects.toThrow(
      'user pressed ctrl-c',
    )
    expect(await exists(join(site.path, MANIFEST_FILENAME))).toBe(false)
  })
})
