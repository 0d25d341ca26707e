// The contract between index.ts (this folder) and the compress child it spawns.
export interface CompressSpec {
  /** The site to compress; null for an idle run that only imports the engine. */
  dir: string | null
  resultFile: string
}

export interface CompressOutcome {
  ms: number
  maxRssBytes: number
  error?: string
}
