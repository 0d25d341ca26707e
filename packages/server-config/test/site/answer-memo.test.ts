// Issue 35.3: the site on disk remembers the representation chosen per Accept-Encoding /
// Available-Dictionary and the answer per version of the file (`site/answer-memo.ts`). One
// handler, kept across requests, must answer exactly as a fresh one does: each header value its
// own representation (an absent header, an empty one and `identity` are three requests), HEAD
// and GET their own answers, and a file rewritten in place — same size, same mtime, other bytes
// — a new ETag on the next plain request.
import { stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compress } from '@preencode/core'
import { createPreencodeHandler } from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'

const PAGE = `<!doctype html><title>memo</title>\n${'<p>version ONE of the page, remembered</p>\n'.repeat(80)}`

interface Seen {
  status: number
  headers: [string, string][]
  body: string
}

async function ask(
  handler: (request: Request) => Promise<Response | undefined>,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Seen> {
  const res = await handler(new Request('http://site.test/index.html', { method, headers }))
  if (!res) throw new Error('not answered')
  const body = Buffer.from(await res.arrayBuffer()).toString('latin1')
  return { status: res.status, headers: [...res.headers], body }
}

const REQUESTS: { headers: Record<string, string>; method?: string }[] = [
  { headers: {} },
  { headers: { 'accept-encoding': '' } },
  { headers: { 'accept-encoding': 'identity' } },
  { headers: { 'accept-encoding': 'br, gzip' } },
  { headers: { 'accept-encoding': 'gzip' } },
  { headers: { 'accept-encoding': 'br, gzip' }, method: 'HEAD' },
  { headers: { 'accept-encoding': 'gzip;q=0, br' } },
  { headers: { 'accept-encoding': 'br, gzip', 'available-dictionary': ':AAAA:' } },
]

describe('answers remembered by the site on disk (issue 35.3)', () => {
  it('one handler kept across requests answers every request as a fresh handler does', async () => {
    const dir = await tempDir('answer-memo')
    try {
      await writeFile(join(dir.path, 'index.html'), PAGE)
      await compress(dir.path, { formats: ['gzip', 'brotli'], cache: false })
      const kept = createPreencodeHandler(dir.path)
      for (let round = 0; round < 3; round++)
        for (const { headers, method } of REQUESTS) {
          const fresh = await ask(createPreencodeHandler(dir.path), headers, method)
          expect(await ask(kept, headers, method), JSON.stringify({ headers, method, round })).toEqual(fresh)
        }
    } finally {
      await dir.remove()
    }
  })

  it('a same-size, same-mtime rewrite gets a new ETag on the next plain request', async () => {
    const dir = await tempDir('answer-memo')
    try {
      const path = join(dir.path, 'index.html')
      await writeFile(path, PAGE)
      await compress(dir.path, { cache: false })
      const kept = createPreencodeHandler(dir.path)
      const identity = { 'accept-encoding': 'identity' }
      const first = await ask(kept, identity)
      expect(first.body).toBe(PAGE)
      expect(await ask(kept, identity)).toEqual(first)
      const { mtime } = await stat(path)
      const rewritten = PAGE.replaceAll('ONE', 'TWO')
      await writeFile(path, rewritten)
      await utimes(path, mtime, mtime)
      const again = await ask(kept, identity)
      expect(again.body).toBe(rewritten)
      const etag = (seen: Seen) => seen.headers.find(([name]) => name === 'etag')?.[1]
      expect(etag(again)).not.toBe(etag(first))
      expect(again).toEqual(await ask(createPreencodeHandler(dir.path), identity))
    } finally {
      await dir.remove()
    }
  })
})
