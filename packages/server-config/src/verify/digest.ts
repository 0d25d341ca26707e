// An answer's body, read as it arrives (issue 29): its size and sha256, its first bytes (where a
// delta names its dictionary) and, for a coding verify knows, the size and sha256 of the decoded
// bytes from a streaming decoder. Only hashes are kept, so memory stays flat whatever the size;
// decoding stops past `maxDecodedBytes` (a body that inflates without end).
import { createHash } from 'node:crypto'
import {
  type BrotliDecompress,
  constants,
  createBrotliDecompress,
  createGunzip,
  createZstdDecompress,
  type Gunzip,
  type ZstdDecompress,
} from 'node:zlib'
import { formatOfEncoding } from '@preencode/core'
import { ZSTD_MAX_WINDOW_LOG } from '@preencode/core/internal'

/** What is known of the decoded bytes: their size and hash, or why they could not be had. */
type DecodedDigest = { bytes: number; sha256: string } | { error: string }

export interface BodyDigest {
  bytes: number
  sha256: string
  /** The first bytes (a delta's header). */
  head: Buffer
  /** Decoded per the answer's one Content-Encoding (the body itself without one). */
  decoded: DecodedDigest
}

const HEAD_BYTES = 64

type Decoder = Gunzip | BrotliDecompress | ZstdDecompress

/** A streaming decoder for a Content-Encoding token; the zstd one refuses windows browsers refuse. */
function decoderFor(encoding: string): Decoder | undefined {
  switch (formatOfEncoding(encoding)?.encoding) {
    case 'gzip':
      return createGunzip()
    case 'br':
      return createBrotliDecompress()
    case 'zstd':
      return createZstdDecompress({ params: { [constants.ZSTD_d_windowLogMax]: ZSTD_MAX_WINDOW_LOG } })
    default:
      return undefined
  }
}

/** Feeds the body in with `write`, then `end` gives its digest. `encoding`: undefined for none. */
export function bodyDigester(
  encoding: string | undefined,
  maxDecodedBytes: number,
): { write(chunk: Buffer): void; end(): Promise<BodyDigest> } {
  const raw = createHash('sha256')
  const decodedHash = encoding === undefined ? raw : createHash('sha256')
  const decoder = encoding === undefined ? undefined : decoderFor(encoding)
  let bytes = 0
  let decodedBytes = 0
  let head = Buffer.alloc(0)
  let error = encoding !== undefined && !decoder ? `not a coding verify decodes (${encoding})` : undefined
  const settled = new Promise<void>((done) => {
    if (!decoder) return done()
    decoder.on('data', (chunk: Buffer) => {
      decodedBytes += chunk.byteLength
      if (decodedBytes > maxDecodedBytes) {
        error ??= `decoded body longer than ${maxDecodedBytes} bytes, stopped decoding`
        decoder.destroy()
        return done()
      }
      decodedHash.update(chunk)
    })
    decoder.on('error', (cause) => {
      error ??= cause.message
      done()
    })
    decoder.on('end', () => done())
    decoder.on('close', () => done())
  })
  return {
    write(chunk) {
      bytes += chunk.byteLength
      raw.update(chunk)
      if (head.byteLength < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.byteLength)])
      if (decoder && !decoder.destroyed) decoder.write(chunk)
    },
    async end() {
      if (decoder && !decoder.destroyed) decoder.end()
      await settled
      const sha256 = raw.digest('hex')
      const decoded: DecodedDigest =
        error !== undefined
          ? { error }
          : decoder
            ? { bytes: decodedBytes, sha256: decodedHash.digest('hex') }
            : { bytes, sha256 }
      return { bytes, sha256, head, decoded }
    },
  }
}
