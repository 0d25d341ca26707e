// A small real site with hand-made variants (node:zlib) and a manifest, for the unit tests and,
// until `compressDirectory` exists, the e2e harness. It writes what the manifest contract says:
// variants strictly smaller than the original, with the original's mtime, smallest first.
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { brotliCompressSync, constants, gzipSync, zstdCompressSync } from 'node:zlib'
import {
  CODECS,
  contentTypeOf,
  type Format,
  isCompressible,
  MANIFEST_FILENAME,
  type Manifest,
  type ManifestFile,
  type ManifestVariant,
} from '@preencode/core'
import { cacheClassOf, resolveCachePolicy } from '@preencode/core/internal'
import { MANIFEST_VERSION } from '../../core/src/manifest/manifest.js'

export interface FixtureOptions {
  /** Remove originals that have a gzip variant (`keepOriginals: false`). @default true */
  keepOriginals?: boolean
  /** Add `big/huge.txt`, a > 8 MiB text file with only a zstd variant. @default false */
  big?: boolean
}

const filler = (label: string, n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `/* ${label} line ${i}: the quick brown fox jumps over the lazy dog ${i % 7} */`,
  ).join('\n')

/** The source files of the fixture site: path -> contents. */
export function fixtureFiles(): Record<string, string | Buffer> {
  const html = (title: string, body: string): string =>
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>\n` +
    `<link rel="stylesheet" href="/assets/style-Qw3rTy12.css">\n` +
    `<script type="module" src="/assets/main-Ab3dEf9h.js"></script></head>\n<body>${body}\n` +
    `<!-- ${filler(title, 30)} -->\n</body></html>\n`
  return {
    'index.html': html('preencode fixture', '<h1>fixture</h1><p id="status">loading</p>'),
    'about/index.html': html('about', '<h1>about</h1><p id="status">loading</p>'),
    // Longer than an nginx map hash bucket holds (46 bytes): exercises the regex map entries.
    'guides/a-rather-long-section-name/and-an-even-longer-page-name/index.html': html(
      'long',
      '<h1>long</h1><p id="status">loading</p>',
    ),
    'assets/main-Ab3dEf9h.js':
      `window.__preencodeMarkers = window.__preencodeMarkers || [];\nwindow.__preencodeMarkers.push('main');\n` +
      `Promise.all([import('./chunk-a-Xy12Zw34.js'), import('./chunk-b-Pq98Rs76.js')]).then(() => {\n` +
      `  document.getElementById('status').textContent = 'ready:' + window.__preencodeMarkers.sort().join(',');\n});\n${filler('main', 40)}\n`,
    'assets/chunk-a-Xy12Zw34.js': `window.__preencodeMarkers.push('chunk-a');\nexport const a = 1;\n${filler('chunk-a', 40)}\n`,
    'assets/chunk-b-Pq98Rs76.js': `window.__preencodeMarkers.push('chunk-b');\nexport const b = 2;\n${filler('chunk-b', 40)}\n`,
    'assets/style-Qw3rTy12.css': `body { font-family: sans-serif; }\n${filler('css', 40)}\n`,
    'data.json': JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
    'small.txt': 'too small to compress\n',
    'logo.png': Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), createHash('sha512').update('png').digest()]),
    'download.tar.gz': gzipSync(Buffer.from(filler('tarball', 50))),
  }
}

/** A deterministic > 8 MiB text whose zstd frame must still use a window of at most 8 MiB. */
export function bigText(): Buffer {
  const lines: string[] = []
  let seed = 1
  for (let i = 0; lines.length < 200_000; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    lines.push(`${i.toString(36)} ${seed.toString(16)} ${(seed % 9973).toString(36)} lorem ipsum dolor sit amet`)
  }
  return Buffer.from(lines.join('\n'))
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function encode(format: Format, data: Buffer): Buffer {
  if (format === 'gzip') return gzipSync(data, { level: 9 })
  if (format === 'brotli') {
    return brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: data.length > 1_000_000 ? 5 : 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    })
  }
  return zstdCompressSync(data, {
    params: { [constants.ZSTD_c_compressionLevel]: data.length > 1_000_000 ? 3 : 19, [constants.ZSTD_c_windowLog]: 23 },
    pledgedSrcSize: data.length,
  })
}

async function walk(dir: string, base = dir): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await walk(full, base)))
    else out.push(relative(base, full).split(sep).join('/'))
  }
  return out.sort()
}

/**
 * Compresses every compressible file >= 1 KiB under `dir` and writes the manifest, like
 * `compressDirectory` will. `only` restricts the formats of some paths.
 */
export async function compressFixture(
  dir: string,
  options: { keepOriginals?: boolean; only?: Record<string, Format[]> } = {},
): Promise<Manifest> {
  const policy = resolveCachePolicy()
  const files: ManifestFile[] = []
  for (const path of await walk(dir)) {
    if (path === MANIFEST_FILENAME || /\.(?:br|zst)$/.test(path) || (/\.gz$/.test(path) && !/\.tar\.gz$/.test(path)))
      continue
    const full = join(dir, path)
    const data = await readFile(full)
    const info = await stat(full)
    const variants: ManifestVariant[] = []
    if (isCompressible(path) && data.length >= 1024) {
      for (const format of options.only?.[path] ?? (['gzip', 'brotli', 'zstd'] as Format[])) {
        const bytes = encode(format, data)
        if (bytes.length >= data.length) continue
        const variantPath = path + CODECS[format].extension
        await writeFile(join(dir, variantPath), bytes)
        await utimes(join(dir, variantPath), info.atime, info.mtime)
        variants.push({
          format,
          encoding: CODECS[format].encoding,
          path: variantPath,
          size: bytes.length,
          sha256: sha256(bytes),
        })
      }
    }
    variants.sort((a, b) => a.size - b.size)
    const cacheClass = cacheClassOf(path, policy)
    const dropOriginal = options.keepOriginals === false && variants.some((v) => v.format === 'gzip')
    if (dropOriginal) await rm(full)
    files.push({
      path,
      size: data.length,
      sha256: sha256(data),
      mtimeMs: Math.floor(info.mtimeMs),
      contentType: contentTypeOf(path),
      cacheClass,
      cacheControl: policy.headers[cacheClass],
      originalOnDisk: !dropOriginal,
      variants,
    })
  }
  const manifest: Manifest = {
    version: MANIFEST_VERSION,
    generator: 'preencode@fixture',
    formats: ['gzip', 'brotli', 'zstd'],
    files,
  }
  await writeFile(join(dir, MANIFEST_FILENAME), JSON.stringify(manifest, null, 2))
  return manifest
}

/** Writes the fixture sources into `dir` (created) and compresses them. */
export async function buildFixtureSite(dir: string, options: FixtureOptions = {}): Promise<Manifest> {
  const files = fixtureFiles()
  if (options.big) files['big/huge.txt'] = bigText()
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), contents)
  }
  return compressFixture(dir, { keepOriginals: options.keepOriginals ?? true, only: { 'big/huge.txt': ['zstd'] } })
}
