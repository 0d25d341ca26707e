// How a cache entry is bound to its key, on disk and in the bucket alike:
// `magic | sha256(key | payload) | payload`. The digest catches a partial write or upload, bit
// rot, and an entry stored under another key (a copied or crafted file); each store has its own
// magic, so neither reads the other's entries, nor an older layout's.
import { createHash } from 'node:crypto'

const DIGEST_BYTES = 32

function digest(key: string, payload: Uint8Array): Buffer {
  return createHash('sha256').update(key).update(payload).digest()
}

/** The bytes to store for `payload` under `key`. */
export function frameEntry(magic: Buffer, key: string, payload: Uint8Array): Buffer {
  return Buffer.concat([magic, digest(key, payload), payload])
}

/** The payload of `entry` if it is intact and was stored under `key`; undefined otherwise. */
export function unframeEntry(magic: Buffer, key: string, entry: Buffer): Buffer | undefined {
  const header = magic.length + DIGEST_BYTES
  if (entry.length < header || !entry.subarray(0, magic.length).equals(magic)) return undefined
  const payload = entry.subarray(header)
  return digest(key, payload).equals(entry.subarray(magic.length, header)) ? payload : undefined
}
