/**
 * The ETag of a file as opened, when the manifest cannot vouch for it (issue 36.2: a same-size
 * rebuild kept its ETag, and a browser holding the old version got a 304).
 *
 * - **Described by the manifest**: its content hash (`etagOf(sha256)`), the same on every server
 *   preencode configures (the Worker, and S3's content ETag behind CloudFront, are content hashes
 *   too). The manifest vouches for a file when size and mtime are as recorded and the file last
 *   changed (its ctime) strictly before the manifest was written. A file changed at the same tick
 *   or later (a deploy writes its manifest just after its files; the kernel's file clock here
 *   ticks in milliseconds) is hashed once, through the handle opened, and the hash kept by
 *   (device, inode, size, mtime, ctime): while none of these changes, the bytes have not.
 * - **Not described** (no manifest, a file it does not list, a file that differs from it): size,
 *   mtime, inode and ctime. A rewrite of the same size with the mtime set back (`cp -p`,
 *   `rsync -a`, `SOURCE_DATE_EPOCH`) still changes the ctime, which no user tool can set, and a
 *   rename over the file changes the inode. Chosen over hashing every file for its cost: no read
 *   before the first byte of a large download. Its limit: two hosts serving copies of one folder
 *   give different ETags (a revalidation costs a full answer, never wrong bytes).
 */
import { createHash } from 'node:crypto'
import type { OpenedFile } from './file-access.js'

/** What `FileHandle.stat()` tells that identifies one version of a file. */
export interface OpenedInfo {
  dev: number
  ino: number
  size: number
  mtimeMs: number
  ctimeMs: number
}

/** Hashes kept at most: one per version of a file served since the start, oldest forgotten first. */
const MAX_HASHES = 4096
const READ_CHUNK = 1024 * 1024
const hashes = new Map<string, Promise<string>>()

const hex = (n: number): string => Math.round(n).toString(16)

/** An ETag no same-size, same-mtime rewrite keeps (see the module comment). */
export function fileEtag(info: OpenedInfo, encoding: string | undefined): string {
  const version = `${hex(info.size)}-${hex(info.mtimeMs)}-${hex(info.ino)}-${hex(info.ctimeMs * 1000)}`
  return `"${version}-${encoding ?? 'identity'}"`
}

/** sha256 (hex) of the file opened, read through its handle without moving it; cached by version. */
export function openedSha256(handle: OpenedFile, info: OpenedInfo): Promise<string> {
  const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`
  const known = hashes.get(key)
  if (known) return known
  const hashing = hashHandle(handle, info.size)
  hashing.catch(() => hashes.delete(key))
  if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value as string)
  hashes.set(key, hashing)
  return hashing
}

async function hashHandle(handle: OpenedFile, size: number): Promise<string> {
  const hash = createHash('sha256')
  const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, Math.max(size, 1)))
  for (let position = 0; position < size; ) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, position)
    if (bytesRead === 0) break
    hash.update(chunk.subarray(0, bytesRead))
    position += bytesRead
  }
  return hash.digest('hex')
}
