// The release of the rsync target that `current` points at.
import { readlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { RsyncDestination } from './command.js'

/** The release `current` points at; only knowable for local paths without a round trip, else the newest. */
export async function liveRelease(
  destination: RsyncDestination,
  releases: readonly string[],
): Promise<string | undefined> {
  if (destination.kind === 'local') {
    try {
      return (await readlink(join(destination.path, 'current'))).replace(/^releases\//, '').replace(/\/$/, '')
    } catch {
      return undefined
    }
  }
  return [...releases].sort().at(-1)
}
