// The one FIFO queue every bound of the process waits in: the pool's bytes and files in flight
// (pool.ts), the file handles (fs/open-files.ts) and the shared cache's S3 requests
// (cache/s3-store.ts). FIFO, so a large request waiting for room is not starved by small ones.

interface Waiter {
  admit: () => boolean
  resolve: () => void
  reject: (reason: unknown) => void
}

/** A FIFO gate: a waiter is admitted when its condition holds and every earlier waiter was. */
export class Gate {
  // An array with a moving head: a site of 50,000 files queues 50,000 waiters, and
  // Array#shift on that many would copy the queue on every admission.
  private queue: Waiter[] = []
  private head = 0

  constructor(private readonly signal?: AbortSignal) {
    signal?.addEventListener(
      'abort',
      () => {
        const waiting = this.queue.slice(this.head)
        this.queue = []
        this.head = 0
        for (const waiter of waiting) waiter.reject(signal.reason)
      },
      { once: true },
    )
  }

  /** Resolves once `admit()` (which takes what it admits) returns true and no earlier waiter is left. */
  wait(admit: () => boolean): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(this.signal.reason)
    if (this.head === this.queue.length && admit()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.queue.push({ admit, resolve, reject })
    })
  }

  /** Call after releasing anything: admits waiters in order while they fit. */
  pump(): void {
    while (this.head < this.queue.length && this.queue[this.head]!.admit()) {
      this.queue[this.head++]!.resolve()
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
  }
}

/**
 * At most `max` units held at once (handles, requests), handed out in the order asked: a caller
 * needing two is not starved by callers needing one. A caller asking for more than `max` gets
 * `max`, so it runs alone instead of never.
 */
export class CountingGate {
  private held = 0
  private readonly gate = new Gate()

  constructor(readonly max: number) {}

  async use<T>(count: number, task: () => Promise<T>): Promise<T> {
    const need = Math.min(Math.max(1, count), this.max)
    await this.gate.wait(() => {
      if (this.held + need > this.max) return false
      this.held += need
      return true
    })
    try {
      return await task()
    } finally {
      this.held -= need
      this.gate.pump()
    }
  }
}
