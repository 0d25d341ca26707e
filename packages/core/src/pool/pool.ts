import { availableParallelism } from 'node:os'
import { Gate } from './gate.js'
import { SlotQueue, type SlotTicket } from './slot-queue.js'

export type { SlotTicket } from './slot-queue.js'

/**
 * Two limits, because the measured failure modes are two: too many encoders at once thrash the
 * cores (zstd 19 over 88 files: 8.8 s with unbounded Promise.all, 3.6 s two at a time), and too
 * many large files held at once exhaust memory (zstd 22 unbounded was killed). A slot limit
 * bounds the first; a byte budget, independent of how big the site is, bounds the second.
 */
export interface PoolOptions {
  /**
   * Encodes running at once.
   * @default os.availableParallelism()
   */
  concurrency?: number
  /**
   * Bytes of input held at once across `withBytes` callers. A single file larger than the budget
   * still runs, alone, so no file is ever refused.
   * @default max(16 MiB, concurrency × the largest file) (`byteBudgetFor`; the largest file as
   * told to `fitByteBudget`, 16 MiB until then)
   */
  maxBytesInFlight?: number
  /**
   * Files held at once across `withBytes` callers. Each file in flight also holds its encoded
   * outputs, manifest entry and promises, so a byte budget alone let ~26,000 small files in at
   * once (1.98 GB RSS on 100,000 pages of 2.5 KB); this bounds that per-file overhead.
   * @default 2048 (DEFAULT_MAX_FILES_IN_FLIGHT)
   */
  maxFilesInFlight?: number
  /** Queued work rejects with the signal's reason once it aborts; running work finishes. */
  signal?: AbortSignal
}

export interface PoolStats {
  /** The most slots ever used at once. */
  peakRunning: number
  /** The most bytes ever held at once. */
  peakBytes: number
  /** The most files ever held at once. */
  peakFiles: number
}

/**
 * The least byte budget: 16 MiB of originals is tens of seconds of encoding at the highest
 * levels, read-ahead enough to keep every core fed. It was 64 MiB: on the 10x bench site
 * (154 MB) that was 64 MiB of originals read and waiting for two encoders, and peak RSS grew
 * 1.45x from the 1x site (15 MB, all in flight either way). Measured at 3x (47 MB, gzip 9 +
 * brotli 11 + zstd 19, no cache): 404 MB peak RSS with 64 MiB, 302 MB with 16 MiB.
 */
export const MIN_BYTES_IN_FLIGHT = 16 * 1024 * 1024

/**
 * The default byte budget: at least `MIN_BYTES_IN_FLIGHT`, and room for one largest file per
 * encode slot, so that while one slot spends minutes on the largest file's brotli the others
 * still have a file to work on.
 */
export function byteBudgetFor(largestFile: number, concurrency: number): number {
  return Math.max(MIN_BYTES_IN_FLIGHT, Math.ceil(largestFile) * concurrency)
}

/**
 * Measured on 20,000 pages of 4 KB (gzip 6, brotli 5, zstd 3, no cache): unbounded 1.00 GB peak
 * RSS; 2048 files 0.51 GB at the same wall time; 256 files 0.40 GB but twice the wall time, as
 * small files spend most of their time in file-system calls, not encoders, and need depth.
 */
const DEFAULT_MAX_FILES_IN_FLIGHT = 2048

export class WorkPool {
  readonly concurrency: number
  private byteBudget: number
  private readonly byteBudgetFixed: boolean
  readonly maxFilesInFlight: number
  private bytes = 0
  private files = 0
  private readonly slots: SlotQueue
  private readonly budget: Gate
  private readonly stats: PoolStats = { peakRunning: 0, peakBytes: 0, peakFiles: 0 }

  constructor(options: PoolOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? availableParallelism()))
    this.byteBudgetFixed = options.maxBytesInFlight !== undefined
    this.byteBudget = Math.max(1, Math.floor(options.maxBytesInFlight ?? MIN_BYTES_IN_FLIGHT))
    this.maxFilesInFlight = Math.max(1, Math.floor(options.maxFilesInFlight ?? DEFAULT_MAX_FILES_IN_FLIGHT))
    this.slots = new SlotQueue(this.concurrency, options.signal, (running) => {
      this.stats.peakRunning = Math.max(this.stats.peakRunning, running)
    })
    this.budget = new Gate(options.signal)
  }

  /** Bytes of input held at once at most (a file larger than that runs alone). */
  get maxBytesInFlight(): number {
    return this.byteBudget
  }

  /**
   * Sizes the default byte budget for a run whose largest file is `largestFile` bytes
   * (`byteBudgetFor`); call it before the run's first `withBytes`. An explicit
   * `maxBytesInFlight` is kept as given.
   */
  fitByteBudget(largestFile: number): void {
    if (!this.byteBudgetFixed) this.byteBudget = byteBudgetFor(largestFile, this.concurrency)
  }

  /**
   * Runs `task` once a slot is free. Use it around each CPU-bound encode. Of the tasks waiting,
   * the one with the highest `priority` (its expected cost: the longest first) gets the next
   * slot; equal priorities run in the order they came.
   */
  run<T>(task: () => Promise<T>, priority = 0): Promise<T> {
    return this.slots.reserve(priority).run(task)
  }

  /**
   * Takes a place in the slot queue now, for an encode that may or may not be needed: the
   * ticket then runs it or is released (see slot-queue.ts for why).
   */
  reserve(priority = 0): SlotTicket {
    return this.slots.reserve(priority)
  }

  /**
   * Holds `bytes` of the budget while `task` runs. Use it around everything that keeps a file's
   * bytes in memory (read, encodes, writes); it does not take a slot, so holding it while
   * waiting for `run` cannot deadlock.
   */
  async withBytes<T>(bytes: number, task: () => Promise<T>): Promise<T> {
    const weight = Math.max(0, bytes)
    await this.budget.wait(() => {
      // An oversized file is admitted only when nothing else is held: it runs alone.
      if (this.bytes > 0 && this.bytes + weight > this.byteBudget) return false
      if (this.files >= this.maxFilesInFlight) return false
      this.files += 1
      this.bytes += weight
      this.stats.peakBytes = Math.max(this.stats.peakBytes, this.bytes)
      this.stats.peakFiles = Math.max(this.stats.peakFiles, this.files)
      return true
    })
    try {
      return await task()
    } finally {
      this.bytes -= weight
      this.files -= 1
      this.budget.pump()
    }
  }

  /** Peaks seen so far, for tests and the report. */
  get peaks(): Readonly<PoolStats> {
    return { ...this.stats }
  }
}
