// Pure helpers of the rsync target: parsing the destination, building argument lists and reading
// rsync's output. Kept apart from the process handling so they can be tested without rsync.
import { userError } from '@preencode/core'

export type RsyncDestination =
  | { kind: 'local'; path: string }
  | { kind: 'ssh'; host: string; path: string }
  | { kind: 'daemon'; url: string }

/**
 * `rsync://host[:port]/module/path` and `host::module/path` reach a daemon; `[user@]host:path`
 * goes over ssh; anything else is a local path.
 */
export function parseRsyncDestination(dest: string): RsyncDestination {
  const trimmed = dest.replace(/\/+$/, '') || '/'
  if (/^rsync:\/\//.test(trimmed)) {
    if (!/^rsync:\/\/[^/]+\/[^/]+/.test(trimmed))
      throw userError('deploy', `"${dest}" names no module; expected rsync://host[:port]/module/path.`)
    return { kind: 'daemon', url: trimmed }
  }
  if (/^[^/:]+::/.test(trimmed)) return { kind: 'daemon', url: trimmed }
  const ssh = /^([^/:]+):(.*)$/.exec(trimmed)
  if (ssh && !/^[a-zA-Z]:[\\/]/.test(trimmed)) {
    return { kind: 'ssh', host: ssh[1]!, path: ssh[2] || '.' }
  }
  return { kind: 'local', path: trimmed }
}

/** The destination as rsync writes it, with a trailing slash, optionally a sub-path inside it. */
export function rsyncUrl(dest: RsyncDestination, sub = ''): string {
  const suffix = sub ? `/${sub.replace(/^\/+|\/+$/g, '')}` : ''
  switch (dest.kind) {
    case 'local':
      return `${dest.path}${suffix}/`
    case 'ssh':
      return `${dest.host}:${dest.path}${suffix}/`
    case 'daemon':
      return `${dest.url}${suffix}/`
  }
}

export interface TransferArgsOptions {
  /** Path of the NUL-separated file list. */
  filesFrom: string
  /** The ssh command, for ssh destinations. */
  ssh?: string | undefined
  /** Compare by checksum instead of size and mtime. */
  checksum?: boolean | undefined
  /** `--link-dest` directory (relative to the destination). */
  linkDest?: string | undefined
  /** Transfer even when size and mtime match: the plan knows the content differs. */
  ignoreTimes?: boolean | undefined
  /** Create missing parent directories of the destination (rsync >= 3.2.3). */
  mkpath?: boolean | undefined
  extra?: readonly string[] | undefined
}

/**
 * One upload phase: only the listed files, mtimes kept (`--times`: variants then carry the
 * originals' mtimes, which nginx's gzip_static uses for ETag and Last-Modified), every file
 * renamed into place at the end of the run (`--delay-updates`), changes itemized for the summary.
 */
export function transferArgs(source: string, destination: string, options: TransferArgsOptions): string[] {
  const args = ['--times', '--delay-updates', '--itemize-changes', '--from0', `--files-from=${options.filesFrom}`]
  if (options.mkpath) args.push('--mkpath')
  if (options.checksum) args.push('--checksum')
  if (options.ignoreTimes) args.push('--ignore-times')
  if (options.linkDest) args.push(`--link-dest=${options.linkDest}`)
  if (options.ssh) args.push('-e', options.ssh)
  args.push(...(options.extra ?? []))
  args.push(source.endsWith('/') ? source : `${source}/`, destination)
  return args
}

/**
 * Deletes exactly the listed keys: they are missing from the source, and
 * `--delete-missing-args` removes such arguments on the receiving side.
 */
export function deleteArgs(source: string, destination: string, filesFrom: string, ssh?: string): string[] {
  const args = ['--delete-missing-args', '--itemize-changes', '--from0', `--files-from=${filesFrom}`]
  if (ssh) args.push('-e', ssh)
  args.push(source.endsWith('/') ? source : `${source}/`, destination)
  return args
}

export interface ListedEntry {
  type: 'file' | 'dir' | 'link' | 'other'
  path: string
  size: number
}

/** Parses `rsync --list-only` lines: `-rw-r--r--          1,234 2026/11/21 13:02:26 path`. */
export function parseListing(output: string): ListedEntry[] {
  const entries: ListedEntry[] = []
  for (const line of output.split('\n')) {
    const match = /^([-dlcbps])\S{9}\s+([\d,.]+)\s+\S+\s+\S+\s+(.+)$/.exec(line)
    if (!match) continue
    const type = match[1] === '-' ? 'file' : match[1] === 'd' ? 'dir' : match[1] === 'l' ? 'link' : 'other'
    const path = type === 'link' ? match[3]!.replace(/ -> .*$/, '') : match[3]!
    entries.push({ type, path, size: Number(match[2]!.replace(/[,.]/g, '')) })
  }
  return entries
}

/** Files rsync actually sent or received, from `--itemize-changes` (`>f…`, `<f…`). */
export function transferredFiles(itemized: string): string[] {
  const files: string[] = []
  for (const line of itemized.split('\n')) {
    const match = /^[<>]f\S{9,}\s(.+)$/.exec(line)
    if (match) files.push(match[1]!)
  }
  return files
}

/** Single-quotes a word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** `ssh host sh -c '<script>'` as an argument list for the release swap and pruning. */
export function sshScriptArgs(ssh: string, host: string, script: string): { command: string; args: string[] } {
  const [command = 'ssh', ...sshArgs] = ssh.split(/\s+/).filter(Boolean)
  return { command, args: [...sshArgs, host, 'sh', '-c', shellQuote(script)] }
}

/** The atomic swap: a new symlink beside `current`, renamed over it (`rename(2)` replaces atomically). */
export function swapScript(base: string, releaseId: string): string {
  const dir = shellQuote(base)
  const target = shellQuote(`releases/${releaseId}`)
  return `cd ${dir} && rm -f current.tmp && ln -s ${target} current.tmp && mv -T current.tmp current`
}

/** Releases to remove: all but the newest `keep`, never the one live. Ids sort by time. */
export function releasesToPrune(releases: readonly string[], keep: number, live: string | undefined): string[] {
  const sorted = [...releases].sort()
  const keepSet = new Set(sorted.slice(Math.max(0, sorted.length - keep)))
  return sorted.filter((id) => !keepSet.has(id) && id !== live)
}
