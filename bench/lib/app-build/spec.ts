// The contract between the parts that build bench/app and the build child they spawn (no side
// effects here: child.ts runs a build when imported).
export type BuildTool = 'baseline' | 'preencode' | 'peer'

export interface BuildSpec {
  tool: BuildTool
  appRoot: string
  outDir: string
  /** preencode's cache directory (cold = empty, warm = filled by the previous build). */
  cacheDir?: string
  /** Which HTML entries to build; --quick builds a small one only. */
  entries: Record<string, string>
  resultFile: string
}

export interface BuildOutcome {
  buildMs: number
  maxRssBytes: number
  /** CPU time of the build process (user + system, every thread), as `buildMs` measures it. */
  cpuMs?: number
  error?: string
}

/** The peer at its best levels: gzip 9, brotli 11; zstd 19 is its default and preencode's. */
export const PEER_LEVELS = { gzip: 9, brotli: 11, zstd: 19 } as const
