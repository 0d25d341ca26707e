import { promisify } from 'node:util'
import { gunzip, gzip as gzipCallback, type ZlibOptions } from 'node:zlib'
import type { Codec } from './codec.js'

// The node:zlib async functions run on libuv's threadpool, so several encodes in flight use
// several cores; the sync variants would serialise everything on the main thread.
const gzipAsync = promisify<Uint8Array, ZlibOptions, Buffer>(gzipCallback)
const gunzipAsync = promisify<Uint8Array, Buffer>(gunzip)

export type GzipParams = {
  readonly level: number
  readonly windowBits: number
  /** Every memLevel tried; the smallest stream wins. */
  readonly memLevels: readonly number[]
  /** Also libdeflate (`engine`) at this level, for `'max'`; the smallest stream wins. */
  readonly libdeflateLevel?: number
  /** The package and version that makes the libdeflate stream: part of the cache key. */
  readonly engine?: string
}

/**
 * The level `'max'` (`levels: { gzip: 'max' }`, `--level-gzip max`): zlib 9's streams and
 * libdeflate's near-optimal parse (its level 12, zopfli-class), the smallest kept. Measured
 * here: 0.947× zlib 9 over the bench app's JS and CSS and 0.972× over Rust-book pages, at about
 * 1 MB/s of CPU; zopfli (@gfx/zopfli, wasm, one iteration) 0.969× on the same pages at 0.05 MB/s.
 */
export const GZIP_MAX_LEVEL = 10
const LIBDEFLATE_LEVEL = 12
/** The version pinned in package.json; a test checks it against the installed package. */
export const LIBDEFLATE_ENGINE = 'libdeflate@0.1.0'

type LibdeflateGzip = (input: Uint8Array, level: number) => Uint8Array
let libdeflate: Promise<LibdeflateGzip> | undefined
/** Loaded on first use: runs without `'max'` never load the wasm module. */
function libdeflateGzip(): Promise<LibdeflateGzip> {
  libdeflate ??= import('libdeflate').then((module) => module.gzip)
  return libdeflate
}

/** gzip (RFC 1952) through zlib. */
export const gzip = {
  format: 'gzip',
  encoding: 'gzip',
  // RFC 9110 §8.4.1.3: recipients should treat x-gzip as gzip.
  aliases: ['x-gzip'],
  extension: '.gz',
  levels: [1, 9],
  defaultLevel: 9,
  maxLevel: GZIP_MAX_LEVEL,
  // ~30 MB/s at level 9 (bench app, CPU time); libdeflate 12 ~1 MB/s.
  cost: (level) => (level === GZIP_MAX_LEVEL ? 1_000_000 : 35_000),
  // One encode at zlib's default memLevel 8, the stream every other tool writes. memLevel 9 wins
  // on some files and loses on others (bench app: 3,876,412 B against 3,871,095 B; the smaller of
  // the two per file 42 B less than 8 alone, 0.001%): not worth a second encode of every file
  // (issue 37). 'max' still tries both, and libdeflate.
  params: (_file, level): GzipParams =>
    level === GZIP_MAX_LEVEL
      ? { level: 9, windowBits: 15, memLevels: [8, 9], libdeflateLevel: LIBDEFLATE_LEVEL, engine: LIBDEFLATE_ENGINE }
      : { level, windowBits: 15, memLevels: [8] },
  async encode(data, params) {
    // One after the other: the pool gave this encode one slot, and running both at once would
    // put two threads on it and oversubscribe the cores the pool is sized to.
    let best: Buffer | undefined
    for (const memLevel of params.memLevels) {
      const stream = await gzipAsync(data, { level: params.level, memLevel, windowBits: params.windowBits })
      if (best === undefined || stream.byteLength < best.byteLength) best = stream
    }
    if (params.libdeflateLevel !== undefined) {
      // Synchronous wasm on this thread: the slot's time is spent here instead of in libuv's pool.
      const out = (await libdeflateGzip())(data, params.libdeflateLevel)
      const stream = Buffer.from(out.buffer, out.byteOffset, out.byteLength)
      if (best === undefined || stream.byteLength < best.byteLength) best = stream
    }
    if (best === undefined) throw new Error('gzip params list no memLevel')
    return best
  },
  decode: (data) => gunzipAsync(data),
} as const satisfies Codec<GzipParams>
