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
  // ~30 MB/s per memLevel, and two are tried (bench app, CPU time).
  cost: () => 70_000,
  // Neither memLevel wins everywhere: over the bench app's 94 bundle files memLevel 9 was 0.14%
  // larger in total than the default 8, on others it is smaller. gzip 9 costs a fraction of
  // brotli 11, so both run and the smaller stream is kept.
  params: (_file, level) => ({ level, windowBits: 15, memLevels: [8, 9] }),
  async encode(data, params) {
    // One after the other: the pool gave this encode one slot, and running both at once would
    // put two threads on it and oversubscribe the cores the pool is sized to.
    let best: Buffer | undefined
    for (const memLevel of params.memLevels) {
      const stream = await gzipAsync(data, { level: params.level, memLevel, windowBits: params.windowBits })
      if (best === undefined || stream.byteLength < best.byteLength) best = stream
    }
    if (best === undefined) throw new Error('gzip params list no memLevel')
    return best
  },
  decode: (data) => gunzipAsync(data),
} as const satisfies Codec<GzipParams>
