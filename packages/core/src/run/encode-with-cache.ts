// One encode of one file, the way every run does it: the cache first (an entry must decode to
// these bytes), else a pool slot, longest encodes first (`encodeCost`).
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { cacheKey } from '../cache/cache.js'
import { decodeBuffer, encoderParams, encoderSettings, encodeWithParams } from '../codecs/encode.js'
import { codecOf, type Format } from '../codecs/table.js'
import { createDebug } from '../debug.js'
import { PreencodeError } from '../errors.js'
import type { ManifestVariant } from '../manifest/manifest.js'
import type { SlotTicket } from '../pool/pool.js'
import type { FileJobContext } from './context.js'
import { isKnownVariant } from './known-variant.js'

const debugEncode = createDebug('preencode:encode')

export interface EncodeOutcome {
  bytes: Buffer
  hit: boolean
  encodeMs: number
  /** The bytes are those of the `known` variant on disk (checked byte for byte): nothing to write. */
  onDisk: boolean
}

/**
 * Cache first; on a miss, encode in a pool slot and store the result (even if not smaller: the
 * next run then skips the work too). `ticket` is the slot reserved for this encode, released on
 * a hit; without one the encode queues now. `known`: the variant a previous run wrote for these
 * bytes and left on disk (`knownVariant`).
 */
export async function encodeWithCache(
  ctx: FileJobContext,
  format: Format,
  data: Buffer,
  sha256: string,
  path: string,
  ticket?: SlotTicket,
  known?: ManifestVariant,
): Promise<EncodeOutcome> {
  const level = ctx.options.levels[format]
  const params = encoderParams(format, { size: data.byteLength, path }, level)
  const key = cacheKey({ contentSha256: sha256, format, settings: encoderSettings(format, params) })
  // A cache folder can be swapped, restored from another branch or written by someone else: an
  // entry is used only if it decodes to these very bytes (local and shared alike), or is exactly
  // the variant the previous run wrote and left on disk (a rerun in place: no decode needed).
  let onDisk = false
  const cached = await ctx.cache.get(key, async (payload) => {
    onDisk = known !== undefined && (await isKnownVariant(ctx, known, payload))
    return onDisk || (await decodeBuffer(format, payload)).equals(data)
  })
  if (cached) {
    ticket?.release()
    return { bytes: cached, hit: true, encodeMs: 0, onDisk }
  }
  const queued = performance.now()
  let started = queued
  const encode = (): Promise<Buffer> => {
    ctx.signal.throwIfAborted()
    started = performance.now()
    return encodeWithParams(format, data, params)
  }
  const encoded = await (ticket
    ? ticket.run(encode)
    : ctx.pool.run(encode, encodeCost(format, level, data.byteLength))
  ).catch((cause: unknown) => {
    if (ctx.signal.aborted) throw cause
    throw new PreencodeError('core', 'INTERNAL', `${format} failed on ${join(ctx.root, path)}`, { cause })
  })
  const ms = performance.now() - started
  if (debugEncode.enabled)
    debugEncode(
      '%s %s %d B -> %d B: %d ms encoding after %d ms queued',
      format,
      path,
      data.byteLength,
      encoded.byteLength,
      Math.round(ms),
      Math.round(started - queued),
    )
  await ctx.cache.set(key, encoded)
  return { bytes: encoded, hit: false, encodeMs: ms, onDisk: false }
}

/**
 * Roughly how long one encode takes, in microseconds: the pool starts the longest first. Only
 * the order matters, so each codec's per-MB rate at the level (`Codec.cost`) is enough.
 */
export function encodeCost(format: Format, level: number, bytes: number): number {
  return (bytes / 1e6) * codecOf(format).cost(level)
}
