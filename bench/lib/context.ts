// What run.ts hands to every part.
export interface BenchContext {
  /** --quick: small inputs, one repetition, short wrk runs; a smoke test of the harness. */
  quick: boolean
  /** Repetitions of each build configuration (median reported). */
  reps: number
  /** A scratch directory for this run, removed at the end unless --keep. */
  tmp: string
  /** Progress lines go to stderr, so stdout carries only the tables. */
  log(message: string): void
  /** Results one part leaves for a later one. */
  shared: { benchAppDist?: string; preencodeCache?: string }
}
