/**
 * The encode slots of the pool: at most `concurrency` held at once, handed out by priority
 * (the expected cost of the encode, longest first), ties in the order they were asked for.
 *
 * Why reservations: files start largest first, but a small file's read and cache lookup finish
 * sooner than a large one's, so if a slot went to whoever asked with an encode in hand, the
 * first slots would go to small files and the longest encode (brotli 11 on the biggest chunk)
 * would start late and end alone on one core. A job therefore reserves its slots as soon as it
 * is admitted (in size order), and then either runs its encode in the slot or releases it
 * (a cache hit, a skipped file). A granted slot waits for its job's read and lookup: a few
 * milliseconds against an encode of seconds.
 */
export interface SlotTicket {
  /** Runs `task` once the slot is granted, then frees it. Call at most once. */
  run<T>(task: () => Promise<T>): Promise<T>
  /** Gives the reservation up: frees the slot, or leaves the queue. Safe to call twice. */
  release(): void
}

interface Reservation {
  priority: number
  order: number
  state: 'queued' | 'granted' | 'released'
  granted: Promise<void>
  grant: () => void
  refuse: (reason: unknown) => void
}

export class SlotQueue {
  // A binary heap (highest priority, then lowest order, on top): O(log n) per admission with
  // 50,000 queued encodes. Released reservations stay in it until they surface (lazy removal).
  private heap: Reservation[] = []
  private arrivals = 0
  private running = 0

  constructor(
    private readonly concurrency: number,
    private readonly signal: AbortSignal | undefined,
    private readonly onGrant: (running: number) => void,
  ) {
    signal?.addEventListener(
      'abort',
      () => {
        const waiting = this.heap
        this.heap = []
        for (const reservation of waiting) {
          if (reservation.state !== 'queued') continue
          reservation.state = 'released'
          reservation.refuse(signal.reason)
        }
      },
      { once: true },
    )
  }

  reserve(priority = 0): SlotTicket {
    let grant!: () => void
    let refuse!: (reason: unknown) => void
    const granted = new Promise<void>((resolve, reject) => {
      grant = resolve
      refuse = reject
    })
    // A reservation released before its grant never has its refusal awaited.
    granted.catch(() => {})
    const reservation: Reservation = { priority, order: this.arrivals++, state: 'queued', granted, grant, refuse }
    if (this.signal?.aborted) {
      reservation.state = 'released'
      refuse(this.signal.reason)
    } else if (this.running < this.concurrency && this.heap.length === 0) {
      this.admit(reservation)
    } else {
      this.push(reservation)
    }
    return {
      run: async (task) => {
        try {
          await reservation.granted
          return await task()
        } finally {
          this.release(reservation)
        }
      },
      release: () => this.release(reservation),
    }
  }

  private admit(reservation: Reservation): void {
    reservation.state = 'granted'
    this.running++
    this.onGrant(this.running)
    reservation.grant()
  }

  private release(reservation: Reservation): void {
    const wasGranted = reservation.state === 'granted'
    reservation.state = 'released'
    if (!wasGranted) return
    this.running--
    while (this.running < this.concurrency) {
      const next = this.pop()
      if (next === undefined) return
      if (next.state === 'queued') this.admit(next)
    }
  }

  private before(a: Reservation, b: Reservation): boolean {
    return a.priority > b.priority || (a.priority === b.priority && a.order < b.order)
  }

  private push(reservation: Reservation): void {
    const heap = this.heap
    heap.push(reservation)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(heap[i]!, heap[parent]!)) break
      ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
      i = parent
    }
  }

  private pop(): Reservation | undefined {
    const heap = this.heap
    const top = heap[0]
    const last = heap.pop()
    if (top === undefined || last === undefined || heap.length === 0) return top
    heap[0] = last
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let best = i
      if (left < heap.length && this.before(heap[left]!, heap[best]!)) best = left
      if (right < heap.length && this.before(heap[right]!, heap[best]!)) best = right
      if (best === i) return top
      ;[heap[i], heap[best]] = [heap[best]!, heap[i]!]
      i = best
    }
  }
}
