// The rsync target's options and their defaults.

/** `rsyncTarget()`'s options. */
export interface RsyncTargetOptions {
  /**
   * Upload into `releases/<id>` and switch a `current` symlink atomically once every file is
   * there. Needs a local path or ssh (a daemon cannot run the swap).
   * @default false
   */
  release?: boolean
  /**
   * Releases kept in release mode, the live one included.
   * @default 5
   */
  keepReleases?: number
  /**
   * The remote shell for `user@host:path`, e.g. `ssh -p 2222 -i key`.
   * @default 'ssh'
   */
  ssh?: string
  /**
   * Compare files by checksum rather than size and mtime.
   * @default false
   */
  checksum?: boolean
  /** @default 'rsync' */
  rsyncPath?: string
  /** Extra rsync arguments for the upload runs, e.g. `['--chmod=F644,D755']`. */
  extraArgs?: string[]
}

export const DEFAULT_KEEP_RELEASES = 5
