/** Where a library run's notes and warnings go; library code never prints (the CLI and bundlers do). */
export interface CompressLogger {
  info(message: string): void
  warn(message: string): void
}
