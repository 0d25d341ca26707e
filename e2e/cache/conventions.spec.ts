// The static-host conventions through Varnish (issue 36): the generated VCL in front of the
// generated nginx config. A clean URL (`/contact` -> contact.html) and the 404 page are negotiated
// like any page: every case of the matrix gets its own coding, from the cache on the second
// round, and a missing path keeps its 404 with the 404 page's variant, never another client's.
import { createHash } from 'node:crypto'
import { expect, test } from '../harness/fixtures.ts'
import { decode, get } from '../harness/http.ts'
import { CLEAN_PAGES, NOT_FOUND_PAGE } from '../harness/site.ts'
import { expectedCoding, judge, MATRIX } from './matrix.ts'
import { generatedVcl, startVarnish } from './varnish.ts'

test('clean URLs and the 404 page through the generated VCL', async ({ server, site }) => {
  const varnish = await startVarnish(generatedVcl(site.manifest, Number(new URL(server.url).port)))
  try {
    const problems: string[] = []
    for (const path of CLEAN_PAGES) {
      const file = site.manifest.files.find((f) => f.path === path)!
      const url = `/${path.replace(/\.html$/, '')}`
      for (const round of [1, 2])
        for (const c of MATRIX.filter((m) => !m.range))
          for (const problem of await judge(varnish.url, site.root, site.manifest, file, `${url}?r=${round}`, c))
            problems.push(`${url} ${c.name} (round ${round}): ${problem}`)
    }
    expect(problems).toEqual([])
    const page = site.manifest.files.find((f) => f.path === NOT_FOUND_PAGE)!
    for (const round of [1, 2])
      for (const c of MATRIX.filter((m) => !m.range)) {
        const res = await get(`${varnish.url}/missing-page`, c.headers)
        const where = `/missing-page ${c.name} (round ${round})`
        expect(res.status, where).toBe(404)
        expect(res.one('content-encoding'), where).toBe(
          expectedCoding(site.manifest, page, c.headers['accept-encoding']),
        )
        const body = decode(res.body, res.one('content-encoding'))
        expect(createHash('sha256').update(body).digest('hex'), where).toBe(page.sha256)
      }
  } catch (error) {
    await test.info().attach('varnish', { body: varnish.logs() })
    throw error
  } finally {
    await varnish.stop()
  }
})
