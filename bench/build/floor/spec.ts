// The contract between index.ts (this folder) and the floor child it spawns, which prints one.
export interface FloorMeasure {
  /** CPU time of every encode, run one at a time. */
  cpuMs: number
  encodes: number
  /** Bytes of the originals encoded. */
  bytes: number
  /** The longest single encode, which cannot be split. */
  longest: { ms: number; path: string; format: string }
}
