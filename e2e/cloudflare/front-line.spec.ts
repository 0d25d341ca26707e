// The emulated front line (Miniflare's entry worker, in front of every Worker in `wrangler dev`)
// against the Worker's model of it (server-config/src/cloudflare/edge.ts), on odd Accept-Encoding
// spellings: a probe Worker answers with a stored variant under the Content-Encoding the test
// names, and what arrives shows what the front line did. Then the Worker's own empty answers.
import { createHash } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ManifestFile } from '@preencode/core'
import { freePort, tempDir } from '@preencode/test-utils'
import { edgeSafeCodings, edgeView } from '../../packages/server-config/src/cloudflare/edge.js'
import { ACCEPT_ENCODING_SPELLINGS } from '../harness/accept-encodings.ts'
import { startMiniflare, writeWorkerFolder } from '../harness/cloudflare.ts'
import { expect, test } from '../harness/fixtures.ts'
import { decode, get, type RawResponse } from '../harness/http.ts'
import { DOTFILES } from '../harness/site.ts'

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex')

/** The shared spellings and more odd ones: case, aliases, parameters, ties, wildcards, refusals. */
const SPELLINGS: readonly string[] = [
  ...ACCEPT_ENCODING_SPELLINGS,
  'gzip, deflate, br, zstd',
  'br, gzip',
  'gzip, br',
  'Gzip, br',
  'x-gzip, br',
  'gzip;level=1, br',
  'br;q=0.5, gzip;q=0.5',
  'gzip;q=0.5, br;q=0.5',
  'br;q=1.0, gzip',
  'gzip;q=0.0, br',
  'gzip;Q=0, br',
  '*;q=0',
  'identity;q=0',
  'identity;q=0, zstd',
  '*, gzip;q=0',
  'identity, gzip',
  'zstd, br',
  'compress, br',
  'br;q=0.9, *',
  'deflate, gzip;q=0.001',
  'gzip,br',
  'br ;q=0.8, gzip ;q=0.9',
]

/** Answers `/probe?path=<stored file>&coding=<Content-Encoding>` with the stored bytes as they are. */
const PROBE_WORKER = `export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    const stored = await env.ASSETS.fetch(new Request(new URL('/' + url.searchParams.get('path'), url)))
    const headers = { 'Content-Type': 'text/html; charset=utf-8' }
    const coding = url.searchParams.get('coding')
    if (coding !== 'identity') headers['Content-Encoding'] = coding
    return new Response(stored.body, { headers, encodeBody: 'manual' })
  },
}
`

/** The body decodes (by its Content-Encoding) to nothing; false when it does not decode at all. */
function emptyOnceDecoded(res: RawResponse): boolean {
  try {
    return decode(res.body, res.one('content-encoding')).length === 0
  } catch {
    return false
  }
}

function withAllCodings(files: readonly ManifestFile[]): ManifestFile {
  const file = files.find(
    (f) => f.variants.length === 3 && f.path.endsWith('.html') && !Object.hasOwn(DOTFILES, f.path),
  )
  if (!file) throw new Error('the site has no HTML page stored in three codings')
  return file
}

test('the Worker sends gzip or br exactly when the emulated front line passes them unchanged', async ({ site }) => {
  const work = await tempDir('cf-front-line')
  const dir = join(work.path, 'probe')
  await writeWorkerFolder(site.manifest, site.root, dir)
  await writeFile(join(dir, 'worker.js'), PROBE_WORKER)
  const port = await freePort()
  const server = await startMiniflare(dir, port)
  const file = withAllCodings(site.manifest.files)
  const disagreements: string[] = []
  try {
    for (const header of SPELLINGS) {
      const safe = edgeSafeCodings(header, ['gzip', 'br', 'zstd'])
      const view = edgeView(header)
      for (const coding of ['gzip', 'br', 'zstd', 'identity'] as const) {
        const stored = coding === 'identity' ? file : file.variants.find((v) => v.encoding === coding)!
        const url = `http://127.0.0.1:${port}/probe?path=${encodeURIComponent(stored.path)}&coding=${coding}`
        const res = await get(url, { 'accept-encoding': header })
        const unchanged =
          res.status === 200 &&
          (res.one('content-encoding') ?? 'identity') === coding &&
          sha256(res.body) === stored.sha256
        // The Worker's rule: it sends a gzip or br variant only when the model says it arrives as stored.
        const modelUnchanged =
          coding === 'identity' ? view.untouched || (!view.pick && !view.refusesIdentity) : safe.includes(coding)
        if (unchanged !== modelUnchanged)
          disagreements.push(`${JSON.stringify(header)} ${coding}: edge ${res.status} ${res.one('content-encoding')}`)
        const refused = !view.untouched && view.refusesIdentity && coding !== 'zstd'
        if ((res.status === 415) !== refused) disagreements.push(`${JSON.stringify(header)} ${coding}: ${res.status}`)
      }
    }
  } finally {
    await server.stop()
    await work.remove()
  }
  expect(disagreements, `over ${SPELLINGS.length} spellings`).toEqual([])
})

test('412 and 416 arrive empty: no coding from the Worker, a valid empty body from the front line', async ({
  site,
}) => {
  const work = await tempDir('cf-empty')
  const dir = join(work.path, 'worker')
  await writeWorkerFolder(site.manifest, site.root, dir)
  const port = await freePort()
  const server = await startMiniflare(dir, port)
  const file = withAllCodings(site.manifest.files)
  const url = `http://127.0.0.1:${port}/${file.path.replace(/(^|\/)index\.html$/, '$1')}`
  const wrong: string[] = []
  try {
    for (const header of SPELLINGS) {
      for (const [status, extra] of [
        [412, { 'if-match': '"not-this-one"' }],
        [416, { range: 'bytes=99999999-' }],
      ] as const) {
        const res = await get(url, { 'accept-encoding': header, ...extra }).catch((error: Error) => error)
        if (res instanceof Error) {
          wrong.push(`${JSON.stringify(header)}: ${res.message} (want ${status})`)
          continue
        }
        // The Worker sends no coding on an empty answer; the front line encodes the empty body into
        // its own pick (a valid, empty gzip or br stream), or refuses the identity answer (415).
        const view = edgeView(header)
        const want = view.refusesIdentity ? 415 : status
        const coding = res.one('content-encoding')
        if (res.status !== want || (want !== 415 && (coding !== view.pick || emptyOnceDecoded(res) !== true)))
          wrong.push(`${JSON.stringify(header)}: ${res.status} ${coding ?? ''} ${res.body.length} B (want ${want})`)
      }
    }
  } finally {
    await server.stop()
    await work.remove()
  }
  expect(wrong, `over ${SPELLINGS.length} spellings`).toEqual([])
})
