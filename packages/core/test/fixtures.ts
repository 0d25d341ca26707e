// Small real inputs made on the fly: text that compresses like real bundles (words, markup,
// repetition), random bytes that do not, and a real gzip archive. Deterministic by seed.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'

export const CORE_DIST = new URL('../dist/index.js', import.meta.url).pathname

/** mulberry32: a tiny seeded PRNG, so fixtures are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'const let function return import export default from class extends new this await async ' +
  'document window element render props state value index length push map filter reduce ' +
  'div span button input style color margin padding display flex grid width height'
).split(' ')

/** JS-like text of about `bytes` bytes: compresses to roughly 20-30% like real code. */
export function textOf(bytes: number, seed = 1): Buffer {
  const random = prng(seed)
  const parts: string[] = []
  let size = 0
  let line = 0
  while (size < bytes) {
    const words = Array.from(
      { length: 4 + Math.floor(random() * 8) },
      () => WORDS[Math.floor(random() * WORDS.length)]!,
    )
    const text = `  ${words.join(' ')}(${Math.floor(random() * 1000)}, "k${line++ % 97}");\n`
    parts.push(text)
    size += text.length
  }
  return Buffer.from(parts.join('').slice(0, bytes))
}

export function randomBytesOf(bytes: number, seed = 7): Buffer {
  const random = prng(seed)
  const out = Buffer.alloc(bytes)
  for (let i = 0; i < bytes; i++) out[i] = Math.floor(random() * 256)
  return out
}

export async function put(root: string, path: string, content: Buffer | string): Promise<string> {
  const absolute = join(root, path)
  await mkdir(dirname(absolute), { recursive: true })
  await writeFile(absolute, content)
  return absolute
}

/**
 * A small static site: HTML, JS, CSS, JSON, SVG, a dot-directory file, a font, a tiny file, and
 * things that must not be compressed (PNG, WOFF2, a real .tar.gz download, random bytes named .js).
 */
export async function makeSite(root: string): Promise<void> {
  await put(
    root,
    'index.html',
    `<!doctype html><html><head><title>t</title></head><body>\n${textOf(20_000, 2).toString()}</body></html>\n`,
  )
  await put(root, 'about/index.html', `<!doctype html><html><body>\n${textOf(6_000, 3).toString()}</body></html>\n`)
  await put(root, 'assets/app-B7x2Kq9a.js', textOf(60_000, 4))
  await put(root, 'assets/style-3f2a9c1d.css', textOf(12_000, 5).toString().replaceAll('(', '{').replaceAll(')', '}'))
  await put(
    root,
    'data.json',
    JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] }))),
  )
  await put(root, 'icon.svg', `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0L10 10"/>'.repeat(200)}</svg>`)
  await put(root, '.well-known/security.txt', textOf(3_000, 6))
  await put(root, 'fonts/face.ttf', Buffer.concat([textOf(4_000, 8), randomBytesOf(1_000, 9), textOf(4_000, 10)]))
  await put(root, 'small.txt', 'tiny file under the threshold\n')
  await put(root, 'image.png', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytesOf(5_000, 11)]))
  await put(root, 'fonts/face.woff2', Buffer.concat([Buffer.from('wOF2'), randomBytesOf(5_000, 12)]))
  await put(root, 'noise.js', randomBytesOf(4_000, 13))
  // A real archive users download: it must stay as it is, with no .tar beside it.
  await put(root, 'download.tar.gz', gzipSync(Buffer.concat([textOf(8_000, 14), randomBytesOf(2_000, 15)])))
}

/** Decodes with the system's command-line tool (gzip, brotli, zstd), independent of node:zlib. */
export function decodeWithCli(format: 'gzip' | 'brotli' | 'zstd', path: string): Buffer {
  return execFileSync(format, ['-dc', path], { maxBuffer: 64 * 1024 * 1024 })
}

export function read(path: string): Promise<Buffer> {
  return readFile(path)
}

/**
 * The window a zstd frame declares (RFC 8878 §3.1.1.1): Window_Descriptor when present; with the
 * Single_Segment flag the window is the Frame_Content_Size instead.
 */
export function zstdFrameWindow(frame: Buffer): number {
  if (frame.readUInt32LE(0) !== 0xfd2fb528) throw new Error('not a zstd frame')
  const descriptor = frame[4]!
  const singleSegment = (descriptor >> 5) & 1
  const fcsFlag = descriptor >> 6
  const dictIdFlag = descriptor & 3
  if (!singleSegment) {
    const window = frame[5]!
    const exponent = window >> 3
    const mantissa = window & 7
    const base = 2 ** (10 + exponent)
    return base + (base / 8) * mantissa
  }
  const offset = 5 + [0, 1, 2, 4][dictIdFlag]!
  const fcsBytes = [1, 2, 4, 8][fcsFlag]!
  if (fcsBytes === 1) return frame[offset]!
  if (fcsBytes === 2) return frame.readUInt16LE(offset) + 256
  if (fcsBytes === 4) return frame.readUInt32LE(offset)
  return Number(frame.readBigUInt64LE(offset))
}
