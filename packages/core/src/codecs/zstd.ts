import { promisify } from 'node:util'
import { constants, type ZstdOptions, zstdCompress, zstdDecompress } from 'node:zlib'
import { type Codec, fittedWindowLog } from './codec.js'

const zstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdCompress)
const unzstdAsync = promisify<Uint8Array, ZstdOptions, Buffer>(zstdDecompress)

/** Browsers refuse zstd frames with a window above 8 MiB (RFC 9659 §3); Chrome fails the page. */
export const ZSTD_MAX_WINDOW_LOG = 23
/** zstd's smallest window (ZSTD_WINDOWLOG_ABSOLUTEMIN). */
const ZSTD_MIN_WINDOW_LOG = 10

export type ZstdParams = {
  readonly level: number
  readonly windowLog: number
  /**
   * With the size known, zstd picks its small-input tables. Absent for a small file at a high
   * level (`smallFileParams`): the size would shrink the window back to the file.
   */
  readonly pledgedSrcSize?: number
  /** zstd's hash and chain table sizes, set only when no size is pledged (see below). */
  readonly hashLog?: number
  readonly chainLog?: number
  /** Whether the pledged size is written into the frame header. */
  readonly contentSize: boolean
}

/**
 * Levels 19-22 use btultra2 with 3-byte matches at every input size, found through a table of
 * 2^min(windowLog, 17) entries. A pledged size shrinks the window (so that table) to the file:
 * 2^12 for a 4 KB file. Measured over the 87 bench-app files under 128 KiB at levels 19 and 22:
 * no pledge, window 2^17 and hash/chain tables of 2^18 make them 38 B (level 19) and 35 B (22)
 * smaller in all, at about the same CPU (~0.3 s for all of them); zstd's unpledged defaults, as
 * vite-plugin-compression2 runs it, give the same bytes but take 6 s of CPU, as they clear 80 MiB
 * of tables per file. At levels 3, 9 and 16 the same change costs 2-4% more bytes (other match finders),
 * so it is kept to 19 and up.
 */
const SMALL_FILE_MIN_LEVEL = 19
const SMALL_FILE_WINDOW_LOG = 17
const SMALL_FILE_TABLE_LOG = 18

function smallFileParams(size: number, level: number): ZstdParams | undefined {
  if (level < SMALL_FILE_MIN_LEVEL || zstdWindowLog(size) > SMALL_FILE_WINDOW_LOG) return undefined
  return {
    level,
    windowLog: SMALL_FILE_WINDOW_LOG,
    hashLog: SMALL_FILE_TABLE_LOG,
    chainLog: SMALL_FILE_TABLE_LOG,
    contentSize: false,
  }
}

/**
 * zstd's window: fitted to the file (less memory, same ratio) and never above 2^23, because
 * browsers refuse frames with a window above 8 MiB (RFC 9659 §3). Levels 20-22 default to
 * 2^25-2^27, so the cap must be explicit at every level.
 */
export function zstdWindowLog(size: number): number {
  return fittedWindowLog(size, ZSTD_MIN_WINDOW_LOG, ZSTD_MAX_WINDOW_LOG)
}

/** Zstandard (RFC 8878), HTTP token `zstd`. */
export const zstd = {
  format: 'zstd',
  encoding: 'zstd',
  aliases: [],
  extension: '.zst',
  levels: [1, 22],
  defaultLevel: 19,
  // ~2.4 MB/s at 16 and above, an order of magnitude faster below (bench app, CPU time).
  cost: (level) => (level >= 16 ? 420_000 : 40_000),
  // Measured: pledgedSrcSize (or, for small files at 19+, explicit tables: smallFileParams)
  // takes zstd 19 over 88 bundle files from 8.8 s to 1.7 s. A pledged size is not written into
  // the frame: 1-8 bytes per file that no browser needs (they decode streaming, the window caps
  // the memory).
  params: (file, level): ZstdParams =>
    smallFileParams(file.size, level) ?? {
      level,
      windowLog: zstdWindowLog(file.size),
      pledgedSrcSize: file.size,
      contentSize: false,
    },
  encode: (data, params) =>
    zstdAsync(data, {
      params: {
        [constants.ZSTD_c_compressionLevel]: params.level,
        [constants.ZSTD_c_windowLog]: params.windowLog,
        [constants.ZSTD_c_contentSizeFlag]: params.contentSize ? 1 : 0,
        // 0 is zstd's "its own choice".
        [constants.ZSTD_c_hashLog]: params.hashLog ?? 0,
        [constants.ZSTD_c_chainLog]: params.chainLog ?? 0,
      },
      // Node exposes ZSTD_c_pledgedSrcSize as this option (there is no constant for it).
      ...(params.pledgedSrcSize === undefined ? {} : { pledgedSrcSize: params.pledgedSrcSize }),
    }),
  decode: (data) => unzstdAsync(data, { params: { [constants.ZSTD_d_windowLogMax]: ZSTD_MAX_WINDOW_LOG } }),
} as const satisfies Codec<ZstdParams>
