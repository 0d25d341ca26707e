// Shared by the @preencode/vite suites: a throw-away copy of a fixture, a Vite logger that
// keeps what it was told, and checks on the files a build left on disk.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { type CompressReport, isCompressible, MANIFEST_FILENAME } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import type { Logger } from 'vite'
import { afterEach } from 'vitest'

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
export const VARIANT_EXTENSIONS = ['.gz', '.br', '.zst'] as const

const DECODERS: Record<(typeof VARIANT_EXTENSIONS)[number], (data: Buffer) => Buffer> = {
  '.gz': gunzipSync,
  '.br': brotliDecompressSync,
  '.zst': zstdDecompressSync,
}

/** Copies `fixtures/<name>` into a temp dir, so builds, caches and edits never touch the repo. */
export async function fixtureCopy(name: string): Promise<{ root: string; remove: () => Promise<void> }> {
  const dir = await tempDir(`vite-${name}`)
  const root = join(dir.path, name)
  await cp(join(FIXTURES, name), root, { recursive: true })
  return { root, remove: dir.remove }
}

/**
 * Per-test clean-up for a suite: `app()` is a fresh copy of `fixtures/app`, `defer(fn)` runs
 * `fn` after the test; both are undone after each test, pass or fail.
 */
export function perTestCleanup(): { app: () => Promise<string>; defer: (cleanup: () => Promise<void>) => void } {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })
  return {
    async app() {
      const copy = await fixtureCopy('app')
      cleanups.push(copy.remove)
      return copy.root
    },
    defer: (cleanup) => {
      cleanups.push(cleanup)
    },
  }
}

/** A Vite logger that records every line; `reports()` parses the `report: 'json'` lines. */
export function captureLogger(): { logger: Logger; lines: string[]; reports: () => CompressReport[] } {
  const lines: string[] = []
  const record = (message: string): void => {
    lines.push(message)
  }
  const logger: Logger = {
    hasWarned: false,
    info: record,
    warn: record,
    warnOnce: record,
    error: record,
    clearScreen() {},
    hasErrorLogged: () => false,
  }
  const reports = (): CompressReport[] =>
    lines.filter((line) => line.startsWith('{"dir"')).map((line) => JSON.parse(line) as CompressReport)
  return { logger, lines, reports }
}

/** Every file under `dir`, as POSIX paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort()
}

/** The variant extensions present beside `path` (e.g. `['.gz', '.br', '.zst']`). */
export function variantsOf(files: string[], path: string): string[] {
  return VARIANT_EXTENSIONS.filter((ext) => files.includes(`${path}${ext}`))
}

/** Asserts-by-throwing that each variant of `path` decodes to exactly the original's bytes. */
export async function expectVariantsDecode(dir: string, path: string, extensions: readonly string[]): Promise<Buffer> {
  const original = await readFile(join(dir, path))
  for (const ext of extensions) {
    const decode = DECODERS[ext as (typeof VARIANT_EXTENSIONS)[number]]
    const decoded = decode(await readFile(join(dir, `${path}${ext}`)))
    if (!decoded.equals(original)) throw new Error(`${path}${ext} does not decode to ${path}`)
  }
  return original
}

/**
 * Asserts-by-throwing that `dir` is served right: every compressible file of `threshold` bytes
 * or more has all three variants, and every variant decodes to its original's current bytes (no
 * stale variant, none without its original). Returns the files it checked.
 */
export async function expectSiteCompressed(dir: string, threshold: number): Promise<string[]> {
  const files = await listFiles(dir)
  const checked: string[] = []
  for (const path of files) {
    const ext = VARIANT_EXTENSIONS.find((e) => path.endsWith(e))
    if (ext) {
      const original = path.slice(0, -ext.length)
      if (!files.includes(original)) throw new Error(`${path} is left without its original`)
      await expectVariantsDecode(dir, original, [ext])
      continue
    }
    if (path === MANIFEST_FILENAME || !isCompressible(path)) continue
    if ((await readFile(join(dir, path))).byteLength < threshold) continue
    const missing = VARIANT_EXTENSIONS.filter((e) => !files.includes(`${path}${e}`))
    if (missing.length > 0) throw new Error(`${path} has no ${missing.join(', ')} in ${dir}`)
    checked.push(path)
  }
  return checked
}

/** A prerendered page: text enough to compress well. */
export function page(title: string): string {
  return `<!doctype html><title>${title}</title>${`<p>${title}: rendered at build time, after Vite.</p>`.repeat(40)}`
}

/** Writes `text` to `path`, making its folder. */
export async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}
