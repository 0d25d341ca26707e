/**
 * Builds a raw dictionary (RFC 9842 `type=raw`: plain bytes brotli and zstd use as a prefix)
 * from sample documents, with no system binary. The algorithm is a simplified COVER (Liao,
 * Petri, Moffat, Wirth, "Effective Construction of Relative Lempel-Ziv Dictionaries", 2016 —
 * what `zstd --train` implements in C):
 *
 * 1. every d-byte substring (d-mer, d = 8) is counted once per sample that contains it: its
 *    worth is how many documents could copy it from the dictionary;
 * 2. the samples, laid end to end, are cut into as many epochs as the dictionary has segments
 *    (size / k); in each epoch the k-byte window whose not-yet-covered d-mers are worth most is
 *    chosen (a window may span two samples, so pages shorter than k still count), and its
 *    d-mers are marked covered so later segments add new material;
 * 3. the chosen segments are concatenated, best last: the end of a prefix dictionary is nearest
 *    to the data, where brotli and zstd copy most cheaply (measured: corpus order or best first
 *    came within 0.1 point of it on every bench corpus);
 * 4. small pages (redirects, stubs) get a segment of their own when they share one
 *    (`smallPagesSegment`), in front, taken from the weakest segment so the size stays.
 *
 * Choosing windows over the whole corpus each time (no epochs) was measured too: no better
 * (24.7 / 35.0 / 47.4% at k = 4096) and 5-10 times slower.
 *
 * `bench/dictionary/` measures it against `zstd --train` at the same size.
 */

export interface DictionaryBuildOptions {
  /**
   * Bytes of the dictionary (at most; less when the samples are smaller).
   * @default 65536
   */
  size?: number
  /**
   * Segment length k: the dictionary is size / k segments. Measured on the
   * `pnpm bench -- --only dictionary` corpora (held-out pages compressed by brotli 11, window
   * 2^24, with the dictionary, as a share of their brotli 11 bytes: within a point of the
   * bench's dcb; npm's docs built by VitePress / npm's own HTML of them / generated random-word
   * pages). At 64 KB: k = 1024 gave 27.4 / 34.8 / 48.8%, 2048 25.7 / 34.6 / 48.2%,
   * 4096 24.0 / 32.2 / 47.8%, 8192 24.2 / 35.2 / 50.1%; at 32 KB: 2048 33.7 / 37.2 / 49.7%,
   * 4096 35.5 / 37.9 / 50.6%; at 128 KB: 4096 19.7 / 30.7 / 44.5%, 8192 17.7 / 30.4 / 47.3%.
   * Sixteen segments was best or near it at every size: long enough to keep a page template's
   * shared runs whole, enough of them to cover the text too.
   * @default size / 16 (4096 for 64 KB), at least 256
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
/** d-mers are counted in a table of 2^22 slots (16 MiB of counters): collisions only blur counts, as in zstd's COVER. */
const TABLE_BITS = 22

/**
 * Small pages: samples of at most 4 KiB. Their template (a redirect page's, a stub's) is rarely
 * worth a segment among whole pages, so without one of their own a 1-2 KB page's dcb, header
 * included, is no smaller than its brotli: measured on the Rust book with 40 mdBook-style
 * redirect pages added, 8 of them gained before, all 40 with a 1 KiB segment of their own (their
 * bytes from 9,668 to 3,297; all 469 pages, brotli 9 with and without: 25.15% -> 24.87%, the
 * dictionary's own brotli 12.6 -> 12.5 KB). The segment is kept only when an average d-mer of it
 * is in at least 4 small samples: a template, not one page's text (the book as shipped has none,
 * and its dictionary is unchanged).
 */
const SMALL_SAMPLE_BYTES = 4096
const SMALL_SEGMENT_BYTES = 1024
const SMALL_SEGMENT_MIN_SHARE = 4

/** Bytes of samples read at most (an even selection beyond): bounds time and memory (4 bytes of slot per byte). */
const MAX_TRAINING_BYTES = 16 * 1024 * 1024

function evenSample(samples: readonly Uint8Array[], budget: number): Uint8Array[] {
  const total = samples.reduce((sum, s) => sum + s.byteLength, 0)
  if (total <= budget) return [...samples]
  const picked: Uint8Array[] = []
  let used = 0
  const step = total / budget
  for (let i = 0; i < samples.length && used < budget; i += step) {
    const sample = samples[Math.floor(i)]!
    picked.push(sample)
    used += sample.byteLength
  }
  return picked
}

/** FNV-1a over d bytes starting at `at`, folded to a table slot. */
function slotOf(data: Uint8Array, at: number, d: number): number {
  let h = FNV_OFFSET
  for (let i = 0; i < d; i++) h = Math.imul(h ^ data[at + i]!, FNV_PRIME)
  return (h >>> 0) >>> (32 - TABLE_BITS)
}

/** Builds a dictionary of at most `size` bytes from `samples`. Deterministic. */
export function buildDictionary(samples: readonly Uint8Array[], options: DictionaryBuildOptions = {}): Buffer {
  const size = options.size ?? 65536
  const k = Math.min(options.segment ?? Math.max(256, Math.floor(size / 16)), size)
  const d = options.dmer ?? 8
  const usable = evenSample(
    samples.filter((s) => s.byteLength >= d),
    MAX_TRAINING_BYTES,
  )
  const total = usable.reduce((sum, s) => sum + s.byteLength, 0)
  if (usable.length === 0 || k < d) return Buffer.alloc(0)
  if (total <= size) return Buffer.concat(usable)

  // 1. Document frequency of each d-mer (slot): counted once per sample.
  const corpus = Buffer.concat(usable)
  const slots = slotsOf(corpus, d)
  const worth = documentFrequency(usable, slots, d)

  // 2. One best segment per epoch, over the samples laid end to end.
  const inWindow = new Uint16Array(1 << TABLE_BITS)
  const segments = Math.floor(size / k)
  const epoch = Math.max(k, Math.floor(corpus.byteLength / segments))
  const chosen: { at: number; score: number }[] = []
  for (let begin = 0; begin + k <= corpus.byteLength && chosen.length < segments; begin += epoch) {
    const end = Math.min(corpus.byteLength, begin + epoch)
    const best = bestWindow(slots, begin, end, k, d, worth, inWindow)
    if (!best || best.score === 0) continue
    chosen.push(best)
    for (let i = best.at; i + d <= best.at + k; i++) worth[slots[i]!] = 0
  }
  // 3. Best last.
  chosen.sort((a, b) => a.score - b.score || a.at - b.at)
  const parts: Buffer[] = chosen.map((c) => corpus.subarray(c.at, c.at + k))
  // 4. Small pages' own segment, in front, out of the weakest segment.
  const small = smallPagesSegment(usable, parts, Math.min(SMALL_SEGMENT_BYTES, k), d, inWindow)
  if (small && parts.length > 0) {
    parts[0] = parts[0]!.subarray(Math.min(parts[0]!.byteLength, small.byteLength))
    parts.unshift(small)
  }
  return Buffer.concat(parts)
}

/**
 * The best window of `size` bytes (at most one segment) over the small samples alone, by how
 * many of them hold each d-mer that `parts` does not already cover; undefined when there are
 * fewer than two or they share too little (`SMALL_SEGMENT_MIN_SHARE`).
 */
function smallPagesSegment(
  samples: readonly Uint8Array[],
  parts: readonly Uint8Array[],
  size: number,
  d: number,
  inWindow: Uint16Array,
): Buffer | undefined {
  const small = samples.filter((s) => s.byteLength <= SMALL_SAMPLE_BYTES)
  if (small.length < 2) return undefined
  const corpus = Buffer.concat(small)
  const slots = slotsOf(corpus, d)
  const worth = documentFrequency(small, slots, d)
  for (const part of parts) for (let i = 0; i + d <= part.byteLength; i++) worth[slotOf(part, i, d)] = 0
  const length = Math.min(size, corpus.byteLength)
  const best = bestWindow(slots, 0, corpus.byteLength, length, d, worth, inWindow)
  if (length < d || !best || best.score < SMALL_SEGMENT_MIN_SHARE * (length - d + 1)) return undefined
  return corpus.subarray(best.at, best.at + length)
}

/** The slot of the d-mer at every position of `corpus`: hashed once, read by every pass. */
function slotsOf(corpus: Uint8Array, d: number): Uint32Array {
  const slots = new Uint32Array(Math.max(0, corpus.byteLength - d + 1))
  for (let i = 0; i < slots.length; i++) slots[i] = slotOf(corpus, i, d)
  return slots
}

/**
 * How many samples hold each d-mer (slot), zero for those in one sample only. `slots` are those
 * of the samples laid end to end; d-mers across two samples are not counted.
 */
function documentFrequency(samples: readonly Uint8Array[], slots: Uint32Array, d: number): Uint32Array {
  const worth = new Uint32Array(1 << TABLE_BITS)
  const lastSample = new Uint32Array(1 << TABLE_BITS)
  let offset = 0
  samples.forEach((sample, index) => {
    for (let i = offset; i + d <= offset + sample.byteLength; i++) {
      const slot = slots[i]!
      if (lastSample[slot] !== index + 1) {
        lastSample[slot] = index + 1
        worth[slot]!++
      }
    }
    offset += sample.byteLength
  })
  // A d-mer in only one document is worth nothing for the others.
  for (let slot = 0; slot < worth.length; slot++) if (worth[slot] === 1) worth[slot] = 0
  return worth
}

/**
 * The k-byte window in [begin, end) whose distinct d-mers are worth most, sliding with counts
 * of each slot in the window (`inWindow` is left all zero again on return).
 */
function bestWindow(
  slots: Uint32Array,
  begin: number,
  end: number,
  k: number,
  d: number,
  worth: Uint32Array,
  inWindow: Uint16Array,
): { at: number; score: number } | undefined {
  if (end - begin < k) return undefined
  let score = 0
  const add = (slot: number): void => {
    if (inWindow[slot]!++ === 0) score += worth[slot]!
  }
  const remove = (slot: number): void => {
    if (--inWindow[slot]! === 0) score -= worth[slot]!
  }
  for (let i = begin; i + d <= begin + k; i++) add(slots[i]!)
  let best = { at: begin, score }
  let at = begin + 1
  for (; at + k <= end; at++) {
    remove(slots[at - 1]!)
    add(slots[at + k - d]!)
    if (score > best.score) best = { at, score }
  }
  for (let i = at - 1; i + d <= at - 1 + k; i++) remove(slots[i]!)
  return best
}
