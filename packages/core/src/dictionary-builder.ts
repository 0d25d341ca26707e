/**
 * Builds a raw dictionary (RFC 9842 `type=raw`: plain bytes brotli and zstd use as a prefix)
 * from sample documents, with no system binary. The algorithm is a simplified COVER (Liao,
 * Petri, Moffat, Wirth, "Effective Construction of Relative Lempel-Ziv Dictionaries", 2016 —
 * what `zstd --train` implements in C):
 *
 * 1. every d-byte substring (d-mer, d = 8) is counted once per sample that contains it: its
 *    worth is how many documents could copy it from the dictionary;
 * 2. the samples are cut into as many epochs as the dictionary has segments (size / k); in
 *    each epoch the k-byte window whose not-yet-covered d-mers are worth most is chosen, and
 *    its d-mers are marked covered so later segments add new material;
 * 3. the chosen segments are concatenated, best last: the end of a prefix dictionary is nearest
 *    to the data, where brotli and zstd copy most cheaply.
 *
 * `bench/parts/dictionary.ts` measures it against `zstd --train` at the same size.
 */

export interface DictionaryBuildOptions {
  /**
   * Bytes of the dictionary (at most; less when the samples are smaller).
   * @default 65536
   */
  size?: number
  /**
   * Segment length k. Measured on 200 documentation pages (dcb of 80 held-out pages): k = 256
   * gave 36.0 kB, 512 21.6 kB, 1024 17.4 kB, 2048 17.6 kB.
   * @default 1024
   */
  segment?: number
  /**
   * d-mer length d.
   * @default 8
   */
  dmer?: number
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** FNV-1a over d bytes starting at `at`: a 32-bit key per d-mer (collisions only blur counts). */
function dmerKey(data: Uint8Array, at: number, d: number): number {
  let h = FNV_OFFSET
  for (let i = 0; i < d; i++) h = Math.imul(h ^ data[at + i]!, FNV_PRIME)
  return h >>> 0
}

/** Builds a dictionary of at most `size` bytes from `samples`. Deterministic. */
export function buildDictionary(samples: readonly Uint8Array[], options: DictionaryBuildOptions = {}): Buffer {
  const size = options.size ?? 65536
  const k = options.segment ?? 1024
  const d = options.dmer ?? 8
  const usable = samples.filter((s) => s.byteLength >= k)
  const total = usable.reduce((sum, s) => sum + s.byteLength, 0)
  if (usable.length === 0 || size < k) return Buffer.alloc(0)
  if (total <= size) return Buffer.concat(usable)

  // 1. Document frequency of each d-mer.
  const worth = new Map<number, number>()
  for (const sample of usable) {
    const seen = new Set<number>()
    for (let i = 0; i + d <= sample.byteLength; i++) seen.add(dmerKey(sample, i, d))
    for (const key of seen) worth.set(key, (worth.get(key) ?? 0) + 1)
  }
  // A d-mer in only one document is worth nothing for the others.
  for (const [key, count] of worth) if (count < 2) worth.delete(key)

  // 2. One best segment per epoch, over the samples laid end to end.
  const corpus = Buffer.concat(usable)
  const starts: number[] = []
  for (let at = 0, i = 0; i < usable.length; at += usable[i]!.byteLength, i++) starts.push(at)
  const segments = Math.floor(size / k)
  const epoch = Math.max(k, Math.floor(corpus.byteLength / segments))
  const chosen: { at: number; score: number }[] = []
  for (let begin = 0; begin + k <= corpus.byteLength && chosen.length < segments; begin += epoch) {
    const end = Math.min(corpus.byteLength, begin + epoch)
    const best = bestWindow(corpus, begin, end, k, d, worth)
    if (!best || best.score === 0) continue
    chosen.push(best)
    for (let i = best.at; i + d <= best.at + k; i++) worth.delete(dmerKey(corpus, i, d))
  }
  // 3. Best last.
  chosen.sort((a, b) => a.score - b.score || a.at - b.at)
  return Buffer.concat(chosen.map((c) => corpus.subarray(c.at, c.at + k)))
}

/** The k-byte window in [begin, end) whose distinct d-mers are worth most (sliding, incremental). */
function bestWindow(corpus: Uint8Array, begin: number, end: number, k: number, d: number, worth: ReadonlyMap<number, number>): { at: number; score: number } | undefined {
  if (end - begin < k) return undefined
  const inWindow = new Map<number, number>()
  let score = 0
  const add = (key: number): void => {
    const n = inWindow.get(key) ?? 0
    if (n === 0) score += worth.get(key) ?? 0
    inWindow.set(key, n + 1)
  }
  const remove = (key: number): void => {
    const n = inWindow.get(key)!
    if (n === 1) {
      inWindow.delete(key)
      score -= worth.get(key) ?? 0
    } else inWindow.set(key, n - 1)
  }
  for (let i = begin; i + d <= begin + k; i++) add(dmerKey(corpus, i, d))
  let best = { at: begin, score }
  for (let at = begin + 1; at + k <= end; at++) {
    remove(dmerKey(corpus, at - 1, d))
    add(dmerKey(corpus, at + k - d, d))
    if (score > best.score) best = { at, score }
  }
  return best
}
