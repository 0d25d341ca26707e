/**
 * How the serving side touches the disk per request (`site-root.ts`, the manifest's `stat`):
 * through `node:fs/promises` on Node and Deno, synchronously on Bun (issue 35.3).
 *
 * Why Bun differs: Bun.serve answers at full speed only a response whose handler never waited
 * for I/O. Every `node:fs/promises` call is a round trip to Bun's thread pool, and the four of a
 * request (the manifest's stat, realpath, open, fstat) held the handler to about half the
 * requests/s of Bun.serve sending the same stored file with `Bun.file`; the same calls made
 * synchronously cost a few microseconds each on a file the kernel has cached, and the handler
 * keeps up (docs/servers/javascript.md#bunserve, the runtimes part of `pnpm bench`). Reads of
 * a body stay asynchronous: only descriptions and opens are synchronous.
 *
 * A file of the site on Bun is a `DescriptorFile`: described by one `stat` (the answer's size,
 * ETag and Last-Modified come from it) and opened only when JavaScript reads it (a hash, a gzip
 * variant decoded, the Node middleware's stream), checked then to be the very version described
 * (`sameVersion`), else the read fails as ENOENT. A body Bun sends itself (`fetch/bun-body.ts`) is
 * opened by Bun, by the same path: no descriptor of ours is opened, stat'ed and closed for it.
 */
import {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fstatSync,
  openSync,
  type ReadStream,
  read,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'

/** What the serving side uses of a file it opened: a `FileHandle`, or a `DescriptorFile` on Bun. */
export interface OpenedFile {
  stat(): Promise<Stats>
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  /** A stream of the file (`end` inclusive) that closes the file when it ends. */
  createReadStream(options?: { start?: number; end?: number }): ReadStream
  close(): Promise<void>
}

/**
 * The calls a request makes: a value or a promise of one (awaited either way); errors as
 * `node:fs`'s. A file of the site is either opened (`open`) or, when `describe` is given, the
 * file `stat` described at a path, opened only when read (and then only if still that version).
 */
export type FileAccess = {
  realpath(path: string): string | Promise<string>
  /** Follows links, as `stat`. */
  stat(path: string): Stats | Promise<Stats>
} & (
  | { open(path: string, flags: number): OpenedFile | Promise<OpenedFile>; describe?: undefined }
  | { describe(path: string, info: Stats): OpenedFile; open?: undefined }
)

/** What tells one version of a file from another (`sameVersion`). */
export type Version = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>

/** One version of one file: a rename, a link, a write or a chmod changes its ctime, a rebuild its inode. */
export const sameVersion = (a: Version, b: Version): boolean =>
  a.ino === b.ino && a.ctimeMs === b.ctimeMs && a.mtimeMs === b.mtimeMs && a.size === b.size && a.dev === b.dev

/** Node and Deno: the thread pool, which keeps the event loop free while a disk answers. */
const PROMISES: FileAccess = { realpath, stat, open }

/** Read only; a FIFO put in place is not waited on (the version check then refuses it). */
const LATE_OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

const failure = (code: string, message: string): Error => Object.assign(new Error(message), { code })

/** A file of the site on Bun, described by `stat` and opened when first read (see the module comment). */
export class DescriptorFile implements OpenedFile {
  #fd: number | undefined
  #closed = false
  #reading = 0
  #closeWhenRead = false

  /** `path`: the path `info` was taken from, inside the site; Bun sends the body from it. */
  constructor(
    readonly path: string,
    readonly info: Stats,
  ) {}

  /** The descriptor, opened now if it is not yet; it must be the version described. */
  #descriptor(): number {
    if (this.#closed) throw failure('EBADF', `${this.path}: file closed`)
    if (this.#fd !== undefined) return this.#fd
    const fd = openSync(this.path, LATE_OPEN_FLAGS)
    if (!sameVersion(fstatSync(fd), this.info)) {
      closeSync(fd)
      SEEN_THIS_TURN.delete(this.path)
      throw failure('ENOENT', `${this.path}: replaced since it was described (a rebuild)`)
    }
    this.#fd = fd
    return fd
  }

  async stat(): Promise<Stats> {
    return fstatSync(this.#descriptor())
  }

  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    let fd: number
    try {
      fd = this.#descriptor()
    } catch (error) {
      return Promise.reject(error)
    }
    this.#reading++
    return new Promise((done, fail) => {
      read(fd, buffer, offset, length, position, (error, bytesRead) => {
        // A close asked for while this read was queued happens now, never under it: the number
        // would otherwise be free for the next open, and the read would read another file.
        if (--this.#reading === 0 && this.#closeWhenRead) this.#closeNow()
        if (error) fail(error)
        else done({ bytesRead })
      })
    })
  }

  createReadStream(options: { start?: number; end?: number } = {}): ReadStream {
    const stream = createReadStream('', { ...options, fd: this.#descriptor(), autoClose: true })
    // The stream owns the descriptor now and closes it; a later close() must not close it twice.
    this.#fd = undefined
    this.#closed = true
    return stream
  }

  async close(): Promise<void> {
    if (this.#reading > 0) this.#closeWhenRead = true
    else this.#closeNow()
  }

  #closeNow(): void {
    const fd = this.#fd
    this.#fd = undefined
    this.#closed = true
    if (fd !== undefined) closeSync(fd)
  }
}

/** Times a real path is asked for again on Bun while the file exists (see `steadyRealpath`). */
const REALPATH_ATTEMPTS = 3

/**
 * Bun's `realpathSync` fails with ENOENT while the file is being renamed over (a rebuild's atomic
 * replace: measured with Bun 1.4.5, 201 of 67,000 calls failed beside a loop of renames; Node's
 * never did), which would make an existing file look gone. Asked again while the path exists.
 */
function steadyRealpath(path: string): string {
  for (let attempt = 1; ; attempt++) {
    try {
      return realpathSync(path)
    } catch (error) {
      if (attempt >= REALPATH_ATTEMPTS || (error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync(path))
        throw error
    }
  }
}

/** Bun: synchronous calls, and files described rather than opened (see the module comment). */
const SYNCHRONOUS: FileAccess = {
  realpath: steadyRealpath,
  stat: (path) => statSync(path),
  describe: (path, info) => new DescriptorFile(path, info),
}

/** The file access of the runtime this runs on. */
export const FILE_ACCESS: FileAccess = 'Bun' in globalThis ? SYNCHRONOUS : PROMISES

/**
 * Whether what one request learnt of a `stat` (the manifest's, `manifest.ts`; a file's,
 * `statThisTurn`) is kept for the other requests of the same event-loop turn. On Node and Deno the
 * requests that arrive while the manifest's `stat` is in the thread pool share it; on Bun, where
 * it is synchronous, the requests Bun.serve hands over in one turn (about 26 under `wrk -c32`,
 * measured with Bun 1.4.5) share it instead, until the turn ends (`setImmediate`): the same
 * "requests that arrive together", one `stat` for them.
 */
export const SHARED_PER_TURN = FILE_ACCESS === SYNCHRONOUS

/** On Bun, what `stat` told of each path this turn; forgotten when the turn ends, or the file is found replaced. */
const SEEN_THIS_TURN = new Map<string, Stats>()

/**
 * `stat` of a file of the site (following links), shared by the requests of one turn on Bun
 * (`SHARED_PER_TURN`); a failure is never kept. A file found replaced since (`DescriptorFile`)
 * is forgotten, so the request asked again sees the new one.
 */
export function statThisTurn(path: string): Stats | Promise<Stats> {
  if (!SHARED_PER_TURN) return FILE_ACCESS.stat(path)
  let seen = SEEN_THIS_TURN.get(path)
  if (seen === undefined) {
    seen = statSync(path)
    if (SEEN_THIS_TURN.size === 0) setImmediate(() => SEEN_THIS_TURN.clear())
    SEEN_THIS_TURN.set(path, seen)
  }
  return seen
}
