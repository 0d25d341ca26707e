import { symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { globProblem } from '../../src/fs/glob-check.js'
import { MANIFEST_FILENAME, MANIFEST_VERSION, type Manifest } from '../../src/manifest/manifest.js'
import { resolveCompressOptions } from '../../src/options/compress-options.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { scanDirectory } from '../../src/run/scan.js'
import { put } from '../fixtures.js'

describe('scanDirectory', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    dir = await tempDir('scan')
  })
  afterEach(async () => {
    await dir.remove()
  })

  it('sorts files into originals, sidecars and temp leftovers', async () => {
    for (const path of [
      'index.html',
      'index.html.br',
      'index.html.gz',
      'assets/app.js',
      'assets/app.js.zst',
      '.hidden/x.txt',
      'download.tar.gz',
      'pic.png',
      'pic.png.gz',
      'assets/.app.js.br.tmp-123-abcdef01',
      `.${MANIFEST_FILENAME}.tmp-9-0a1b2c3d`,
      MANIFEST_FILENAME,
    ]) {
      await put(dir.path, path, 'x')
    }
    // No earlier manifest: preencode wrote none of these, so every sidecar-named file is the user's.
    const first = await scanDirectory(dir.path)
    expect(first.originals).toEqual([
      '.hidden/x.txt',
      'assets/app.js',
      'assets/app.js.zst',
      'download.tar.gz',
      'index.html',
      'index.html.br',
      'index.html.gz',
      'pic.png',
      'pic.png.gz',
    ])
    expect(first.variants).toEqual([])
    expect(first.tempFiles).toEqual([`.${MANIFEST_FILENAME}.tmp-9-0a1b2c3d`, 'assets/.app.js.br.tmp-123-abcdef01'])
    // An earlier manifest recording three of them makes those three preencode's, and only them.
    const variant = (path: string) => ({
      format: 'brotli' as const,
      encoding: 'br' as const,
      path,
      size: 1,
      sha256: '0'.repeat(64),
    })
    const file = (path: string, variants: string[]) => ({
      path,
      size: 2000,
      sha256: '0'.repeat(64),
      mtimeMs: 0,
      contentType: 'text/html',
      cacheClass: 'default' as const,
      cacheControl: 'x',
      originalOnDisk: true,
      variants: variants.map(variant),
    })
    const previous: Manifest = {
      version: MANIFEST_VERSION,
      generator: 'test',
      formats: ['brotli'],
      files: [file('index.html', ['index.html.br', 'index.html.gz']), file('assets/app.js', ['assets/app.js.zst'])],
    }
    const scan = await scanDirectory(dir.path, { previous })
    expect(scan.originals).toEqual([
      '.hidden/x.txt',
      'assets/app.js',
      'download.tar.gz',
      'index.html',
      'pic.png',
      'pic.png.gz',
    ])
    expect(scan.variants).toEqual(['assets/app.js.zst', 'index.html.br', 'index.html.gz'])
    expect(scan.tempFiles).toEqual([`.${MANIFEST_FILENAME}.tmp-9-0a1b2c3d`, 'assets/.app.js.br.tmp-123-abcdef01'])
  })

  it('lists symlinks to files inside the root, and never walks a symlink', async () => {
    const outside = await tempDir('scan-outside')
    try {
      await put(outside.path, 'far.html', 'x')
      await put(dir.path, 'real/page.html', 'x')
      await symlink(join(outside.path), join(dir.path, 'out-dir'))
      await symlink(join(outside.path, 'far.html'), join(dir.path, 'out-file.html'))
      await symlink('real/page.html', join(dir.path, 'alias.html'))
      await symlink('real', join(dir.path, 'alias-dir'))
      await symlink('missing.html', join(dir.path, 'dangling.html'))
      const scan = await scanDirectory(dir.path)
      expect(scan.originals).toEqual(['alias.html', 'real/page.html'])
      expect(scan.skipped.map((s) => `${s.path}:${s.reason}`).sort()).toEqual([
        'alias-dir:symlink-directory',
        'dangling.html:symlink-dangling',
        'out-dir:symlink-outside',
        'out-file.html:symlink-outside',
      ])
      expect(scan.foreign.has('out-file.html')).toBe(true)
    } finally {
      await outside.remove()
    }
  })

  it('counts a sidecar whose original is gone as a variant when the previous manifest recorded it', async () => {
    await put(dir.path, 'gone.js.br', 'x')
    await put(dir.path, 'other.js.gz', 'x')
    const previous: Manifest = {
      version: MANIFEST_VERSION,
      generator: 'test',
      formats: ['brotli'],
      files: [
        {
          path: 'gone.js',
          size: 2000,
          sha256: '0'.repeat(64),
          mtimeMs: 0,
          contentType: 'text/javascript',
          cacheClass: 'default',
          cacheControl: 'x',
          originalOnDisk: true,
          variants: [{ format: 'brotli', encoding: 'br', path: 'gone.js.br', size: 10, sha256: '0'.repeat(64) }],
        },
      ],
    }
    const scan = await scanDirectory(dir.path, { previous })
    expect(scan.variants).toEqual(['gone.js.br'])
    expect(scan.originals).toEqual(['other.js.gz'])
  })

  it('reports include and exclude matches and skips the cache directory inside the site', async () => {
    for (const path of ['a.custom', 'b.js', 'vendor/c.js', 'node_modules/.cache/preencode/v1/aa/bb'])
      await put(dir.path, path, 'x')
    const scan = await scanDirectory(dir.path, {
      include: ['*.custom', /^vendor\//],
      exclude: ['vendor/**'],
      skipDirs: [`${dir.path}/node_modules/.cache/preencode`],
    })
    expect([...scan.included].sort()).toEqual(['a.custom', 'vendor/c.js'])
    // Excluded: matched by `exclude` (which wins), or outside a given `include`.
    expect([...scan.excluded].sort()).toEqual(['b.js', 'vendor/c.js'])
    expect(scan.originals).toEqual(['a.custom', 'b.js', 'vendor/c.js'])
  })
})

describe('include and exclude globs', () => {
  it('refuses a glob with an unclosed or stray bracket, naming the option; escaped ones are fine', () => {
    expect(() => resolveCompressOptions({ include: ['*.{html,js'] })).toThrow(
      /`include` has the glob '\*\.\{html,js', which has an unclosed `\{`: it would match no file/,
    )
    expect(() => resolveCompressOptions({ exclude: 'docs/[ab*.md' })).toThrow(/`exclude` .* an unclosed `\[`/)
    expect(() => resolveCompressOptions({ include: '*.js)' })).toThrow(/a `\)` that closes nothing/)
    for (const ok of ['**/*.{js,css}', 'a/[abc]/*.md', 'weird\\{name.txt', '[{]x', '@(a|b).js'])
      expect(globProblem(ok), ok).toBeUndefined()
  })

  it('an include that matches no file warns: the run would strip every variant', async () => {
    const dir = await tempDir('include-none')
    try {
      await put(dir.path, 'index.html', '<p>hello</p>'.repeat(500))
      const warnings: string[] = []
      await compressDirectory(
        dir.path,
        { include: ['*.hmtl'], cache: false },
        { logger: { info() {}, warn: (m) => warnings.push(m) } },
      )
      expect(warnings).toEqual([
        expect.stringMatching(/`include` \(\*\.hmtl\) matches no file in .*: no file is compressed/),
      ])
    } finally {
      await dir.remove()
    }
  })
})
