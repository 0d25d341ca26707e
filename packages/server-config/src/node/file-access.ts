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
 * A file opened on Bun is a `DescriptorFile`: the descriptor of one open, stat'ed, read and
 * closed through it as a `FileHandle` would be, so the one-handle guarantee holds for what the
 * handler tells from it (size, ETag, Last-Modified).
 */
import {
  closeSync,
  createReadStream,
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

/** The calls a request makes: a value or a promise of one (awaited either way); errors as `node:fs`'s. */
export interface FileAccess {
  realpath(path: string): string | Promise<string>
  /** Follows links, as `stat`. */
  stat(path: string): Stats | Promise<Stats>
  open(path: string, flags: number): OpenedFile | Promise<OpenedFile>
}

/** Node and Deno: the thread pool, which keeps the event loop free while a disk answers. */
const PROMISES: FileAccess = { realpath, stat, open }

/** A file opened with `openSync` on Bun: stat'ed and closed synchronously, read asynchronously. */
export class DescriptorFile implements OpenedFile {
  #fd: number | undefined
  #reading = 0
  #closeWhenRead = false

  /** `path`: the real path it was opened by (inside the site). */
  constructor(
    fd: number,
    readonly path: string,
  ) {
    this.#fd = fd
  }

  async stat(): Promise<Stats> {
    if (this.#fd === undefined) throw Object.assign(new Error('file closed'), { code: 'EBADF' })
    return fstatSync(this.#fd)
  }

  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    const fd = this.#fd
    if (fd === undefined) return Promise.reject(Object.assign(new Error('file closed'), { code: 'EBADF' }))
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
    if (this.#fd === undefined) throw Object.assign(new Error('file closed'), { code: 'EBADF' })
    const stream = createReadStream('', { ...options, fd: this.#fd, autoClose: true })
    // The stream owns the descriptor now and closes it; a later close() must not close it twice.
    this.#fd = undefined
    return stream
  }

  async close(): Promise<void> {
    if (this.#reading > 0) this.#closeWhenRead = true
    else this.#closeNow()
  }

  #closeNow(): void {
    const fd = this.#fd
    this.#fd = undefined
    if (fd !== undefined) closeSync(fd)
  }
}

/** Bun: synchronous calls (see the module comment). */
const SYNCHRONOUS: FileAccess = {
  realpath: (path) => realpathSync(path),
  stat: (path) => statSync(path),
  open: (path, flags) => new DescriptorFile(openSync(path, flags), path),
}

/** The file access of the runtime this runs on. */
export const FILE_ACCESS: FileAccess = 'Bun' in globalThis ? SYNCHRONOUS : PROMISES
