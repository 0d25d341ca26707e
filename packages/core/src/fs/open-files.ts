import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { CountingGate } from '../pool/gate.js'

/**
 * One process-wide bound on the file handles preencode holds at once. The pool bounds bytes in
 * flight, not handles: a site of many small files admits thousands of files at once, each
 * opening its original, three cache entries and three temp files, and macOS's default limit of
 * 256 handles (`ulimit -n`) then fails the run with EMFILE. Every open that preencode makes
 * (read, hash, cache, write, deploy upload) goes through `withOpenFiles`; handles are a
 * process-wide resource, so one limit serves every concurrent run in the process.
 *
 * Rule for callers: never call `withOpenFiles` inside another `withOpenFiles` task (a task
 * waiting for a handle while holding one can deadlock the queue); take the count you need at once.
 */

/**
 * Handles held at once. 64 leaves room under a 256 limit for Node's own (about 20) and for the
 * host process (a Vite dev server, a test runner); it is far above the 4 threads libuv runs
 * file operations on, so it costs no throughput.
 * @default 64, or PREENCODE_MAX_OPEN_FILES
 */
const DEFAULT_MAX_OPEN_FILES = 64

function limitFromEnv(): number {
  const value = Number(process.env.PREENCODE_MAX_OPEN_FILES)
  return Number.isInteger(value) && value >= 1 ? value : DEFAULT_MAX_OPEN_FILES
}

const limit = new CountingGate(limitFromEnv())

/**
 * Runs `task`, which opens up to `count` files and closes them before it settles, once that
 * many handles are free under the process-wide limit.
 */
export function withOpenFiles<T>(count: number, task: () => Promise<T>): Promise<T> {
  return limit.use(count, task)
}

/**
 * The sha256 (hex) of a file, streamed under the handle limit. Settles on 'close', once the
 * handle is released, so the limit counts it until then.
 */
export function sha256File(path: string): Promise<string> {
  return withOpenFiles(
    1,
    () =>
      new Promise<string>((done, reject) => {
        const hash = createHash('sha256')
        let digest: string | undefined
        createReadStream(path)
          .on('data', (chunk) => hash.update(chunk))
          .on('error', reject)
          .on('end', () => {
            digest = hash.digest('hex')
          })
          .on('close', () => {
            if (digest !== undefined) done(digest)
          })
      }),
  )
}
