// Issue 36.2: a file rewritten with other bytes of the same size and the same mtime (a build
// pinning mtimes: `SOURCE_DATE_EPOCH`, `cp -p`, `rsync -a`, a deploy keeping the source's
// times) must not keep its ETag: a browser holding the old version asks with If-None-Match and
// must get the new bytes, not a 304. Through the middleware over real HTTP and the Fetch handler,
// on a folder without a manifest, with its manifest on disk (not yet rewritten), and with a
// manifest given in memory. And while the file is the one the manifest describes, the ETag is
// the manifest's content hash.
import { createHash } from 'node:crypto'
import { stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compress, type Manifest } from '@preencode/core'
import { createPreencodeHandler } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { get, serve } from '../node/helpers.js'

const OLD = `<!doctype html><title>v1</title>\n${'<p>version ONE of the page</p>\n'.repeat(60)}`
const NEW = OLD.replaceAll('ONE', 'TWO')
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

type Ask = (headers: Record<string, string>) => Promise<{ status: number; etag: string | undefined; body: string }>

/** Rewrites index.html with `text`, same size, mtime set back to what it was. */
async function rewriteKeepingMtime(root: string, text: string): Promise<void> {
  const path = join(root, 'index.html')
  const { mtime } = await stat(path)
  expect(Buffer.byteLength(text)).toBe(Buffer.byteLength(OLD))
  await writeFile(path, text)
  await utimes(path, mtime, mtime)
}

const viaHandler =
  (root: string, manifest?: Manifest): Ask =>
  async (headers) => {
    const res = await createPreencodeHandler(
      root,
      manifest ? { manifest } : {},
    )(new Request('http://site.test/index.html', { headers }))
    return { status: res!.status, etag: res!.headers.get('etag') ?? undefined, body: await res!.text() }
  }

async function viaMiddleware(root: string, manifest?: Manifest): Promise<{ ask: Ask; close: () => void }> {
  const { server, port } = await serve(root, manifest)
  return {
    ask: async (headers) => {
      const res = await get(port, '/index.html', headers)
      return { status: res.status, etag: res.headers.etag as string | undefined, body: res.body.toString() }
    },
    close: () => server.close(),
  }
}

/** The old version's ETag, then the rewrite: a 200 with the new bytes, never a 304. */
async function expectNoStale304(root: string, ask: Ask, firstEtag?: string): Promise<void> {
  const identity = { 'accept-encoding': 'identity' }
  const first = await ask(identity)
  expect(first.status).toBe(200)
  expect(first.body).toBe(OLD)
  if (firstEtag) expect(first.etag).toBe(firstEtag)
  expect((await ask({ ...identity, 'if-none-match': first.etag! })).status).toBe(304)
  await rewriteKeepingMtime(root, NEW)
  const again = await ask({ ...identity, 'if-none-match': first.etag! })
  expect(again.status).toBe(200)
  expect(again.body).toBe(NEW)
  expect(again.etag).not.toBe(first.etag)
}

type Mode = 'no manifest' | 'manifest on disk' | 'manifest in memory'
const MODES: Mode[] = ['no manifest', 'manifest on disk', 'manifest in memory']

async function site(mode: Mode) {
  const dir = await tempDir('same-size-etag')
  await writeFile(join(dir.path, 'index.html'), OLD)
  const manifest = mode === 'no manifest' ? undefined : (await compress(dir.path, { cache: false })).manifest
  // The manifest's content hash, while the file is the one it describes.
  const etag = manifest ? `"${sha(OLD).slice(0, 32)}"` : undefined
  return { dir, manifest: mode === 'manifest in memory' ? manifest : undefined, etag }
}

describe('a same-size, same-mtime rewrite changes the ETag (issue 36.2)', () => {
  for (const mode of MODES) {
    it(`the Fetch handler, ${mode}`, async () => {
      const { dir, manifest, etag } = await site(mode)
      try {
        await expectNoStale304(dir.path, viaHandler(dir.path, manifest), etag)
      } finally {
        await dir.remove()
      }
    })

    it(`the middleware over HTTP, ${mode}`, async () => {
      const { dir, manifest, etag } = await site(mode)
      const served = await viaMiddleware(dir.path, manifest)
      try {
        await expectNoStale304(dir.path, served.ask, etag)
      } finally {
        served.close()
        await dir.remove()
      }
    })
  }
})
