// The bound: an estimate of the least any dictionary scheme under RFC 9842 could send a returning
// visitor. For each file they fetch (bytes they do not hold at that URL), its size encoded against
// EVERYTHING they held before the visit, as one raw dictionary (every distinct content fetched on
// earlier visits, the least recently loaded first, cut from the front to fit the window): the
// smallest of brotli 11 alone, dcz (zstd 19 with that dictionary) and dcb (brotli 11 with it, when
// dictionary and file fit brotli's 16 MiB window). No dictionary fetch is counted: the visitor
// already holds those bytes. A history whose bound is above a target cannot reach it by any
// mechanism that only uses what the visitor holds.
import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import { promisify } from 'node:util'
import { type BrotliOptions, brotliCompress, constants, type ZstdOptions, zstdCompress } from 'node:zlib'

/** One file the visitor fetches on a visit, and what it is encoded against. */
interface BoundFetch {
  path: string
  /** sha256 (hex) of its bytes. */
  hash: string
  /** The distinct contents held before the visit (sha256 hex), least recently loaded first. */
  held: readonly string[]
  /** No file fetched before had the same stem (the name without its content hash). */
  newStem: boolean
}

/** The bound of one return visit, and brotli 11 alone of the same files. */
export interface DeployBound {
  /** Files fetched (not held at their URL). */
  fetched: number
  /** Bytes of the bound. */
  bound: number
  /** brotli 11 alone of the same files (never more than the file). */
  brotli: number
  /** The bound's bytes for the files whose stem is new. */
  newStemBound: number
}

/**
 * What a returning visitor holds, visit after visit: the bytes at each URL (the browser cache)
 * and every distinct content fetched so far. `stemOf` maps a path to its stem (same file, other
 * versions); a plain name is its own stem.
 */
export class VisitorHoldings {
  private readonly atUrl = new Map<string, string>()
  /** Distinct contents, least recently loaded first (a Map keeps insertion order). */
  private readonly contents = new Map<string, true>()
  private readonly stems = new Set<string>()
  private readonly stemOf: (path: string) => string

  constructor(stemOf: (path: string) => string) {
    this.stemOf = stemOf
  }

  /** The files of one visit the visitor fetches, each with what was held before the visit; then records the visit. */
  visit(files: readonly { path: string; hash: string }[]): BoundFetch[] {
    const held = [...this.contents.keys()]
    const fetches = files
      .filter((f) => this.atUrl.get(f.path) !== f.hash)
      .map((f) => ({ path: f.path, hash: f.hash, held, newStem: !this.stems.has(this.stemOf(f.path)) }))
    for (const f of files) {
      this.atUrl.set(f.path, f.hash)
      // Loaded on this visit (fetched or from the cache): now the most recent.
      this.contents.delete(f.hash)
      this.contents.set(f.hash, true)
      this.stems.add(this.stemOf(f.path))
    }
    return fetches
  }
}

/** The stem of a path under core's versioned-asset rule (`HASHED_NAME_RULE.versionedAsset`): `dir/stem-*.ext`, else the path. */
export function stemFunction(versionedAsset: string): (path: string) => string {
  const pattern = new RegExp(versionedAsset)
  return (path) => {
    const match = pattern.exec(posix.basename(path))
    return match ? posix.join(posix.dirname(path), `${match[1]}${match[2]}*.${match[3]}`) : path
  }
}

/** node:zlib takes a raw dictionary for brotli (Node 24.15), its types do not say so yet. */
type BrotliDictionaryOptions = BrotliOptions & { dictionary?: ArrayBufferView }
const brotliAsync = promisify(brotliCompress) as (bytes: Buffer, options: BrotliDictionaryOptions) => Promise<Buffer>
const zstdAsync = promisify(zstdCompress)
/** zstd's largest window without the long-window flag on the decoder (RFC 9842's dcz: 128 MiB). */
const ZSTD_MAX_WINDOW_LOG = 27
/** Brotli's largest standard window (dcb: dictionary and file within 16 MiB). */
const BROTLI_MAX_WINDOW_LOG = 24
const fitted = (bytes: number, max: number): number => Math.min(max, Math.max(10, Math.ceil(Math.log2(bytes + 16))))

async function brotli11(bytes: Buffer, dictionary?: Buffer): Promise<number> {
  const lgwin = fitted((dictionary?.byteLength ?? 0) + bytes.byteLength, BROTLI_MAX_WINDOW_LOG)
  const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: lgwin }
  return (await brotliAsync(bytes, dictionary ? { params, dictionary } : { params })).byteLength
}

async function zstd19(bytes: Buffer, dictionary: Buffer): Promise<number> {
  const windowLog = fitted(dictionary.byteLength + bytes.byteLength, ZSTD_MAX_WINDOW_LOG)
  const options: ZstdOptions = {
    dictionary,
    params: { [constants.ZSTD_c_compressionLevel]: 19, [constants.ZSTD_c_windowLog]: windowLog },
  }
  return (await zstdAsync(bytes, options)).byteLength
}

/** The least of brotli 11 alone, dcz and dcb (where it fits) for one file against one held set; and brotli 11 alone. */
async function fileBound(bytes: Buffer, dictionary: Buffer): Promise<{ bound: number; brotli: number }> {
  const brotli = Math.min(bytes.byteLength, await brotli11(bytes))
  if (dictionary.byteLength === 0) return { bound: brotli, brotli }
  const window = 2 ** ZSTD_MAX_WINDOW_LOG - bytes.byteLength - 16
  const cut = dictionary.subarray(Math.max(0, dictionary.byteLength - window))
  const dcz = await zstd19(bytes, cut)
  const dcb = cut.byteLength + bytes.byteLength + 16 <= 2 ** BROTLI_MAX_WINDOW_LOG ? await brotli11(bytes, cut) : dcz
  return { bound: Math.min(brotli, dcz, dcb), brotli }
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/**
 * One site's bound, deploy by deploy: `visit` takes the original bytes of the files one visit
 * loads and starts their encodes in zlib's thread pool (each distinct file and held set once);
 * the first visit is not a return and comes to 0.
 */
export class HistoryBound {
  private readonly holdings: VisitorHoldings
  private readonly bytes = new Map<string, Buffer>()
  private readonly encodes = new Map<string, Promise<{ bound: number; brotli: number }>>()
  private visits = 0

  constructor(versionedAsset: string) {
    this.holdings = new VisitorHoldings(stemFunction(versionedAsset))
  }

  visit(files: ReadonlyMap<string, Buffer>): Promise<DeployBound> {
    const listed = [...files].map(([path, bytes]) => ({ path, hash: sha256(bytes), bytes }))
    const fetches = this.holdings.visit(listed)
    for (const f of listed) this.bytes.set(f.hash, f.bytes)
    if (this.visits++ === 0) return Promise.resolve({ fetched: 0, bound: 0, brotli: 0, newStemBound: 0 })
    const dictionary = fetches.length > 0 ? Buffer.concat(fetches[0]!.held.map((h) => this.bytes.get(h)!)) : undefined
    const setKey = sha256(Buffer.from(fetches[0]?.held.join() ?? ''))
    return Promise.all(
      fetches.map(async (f) => {
        const key = `${f.hash} ${setKey}`
        let encode = this.encodes.get(key)
        if (!encode) {
          encode = fileBound(this.bytes.get(f.hash)!, dictionary!)
          this.encodes.set(key, encode)
        }
        return { ...(await encode), newStem: f.newStem }
      }),
    ).then((sizes) => ({
      fetched: sizes.length,
      bound: sizes.reduce((n, s) => n + s.bound, 0),
      brotli: sizes.reduce((n, s) => n + s.brotli, 0),
      newStemBound: sizes.reduce((n, s) => n + (s.newStem ? s.bound : 0), 0),
    }))
  }
}
