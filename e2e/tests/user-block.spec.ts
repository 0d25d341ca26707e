// The include forms inside a user's own TLS server block (e2e/harness/user-block.ts): besides
// the whole serving suite passing through it (the `*-include` projects), the block's own
// locations answer as before — /api/ reaches the user's Node server (also for names with a
// compressible extension), the redirect is a 301, and a missing page or file gets the user's 404.
import { ONLY } from '../harness/applies.ts'
import { expect, test } from '../harness/fixtures.ts'
import { decode, get } from '../harness/http.ts'
import { API_BODY, USER_BLOCK } from '../harness/user-block.ts'

test.describe("the user's own server block", { tag: ONLY.userBlock }, () => {
  test('/api/ reaches the Node server, with its body and headers', async ({ server }) => {
    for (const path of ['/api/users', '/api/data.json', '/api/app.js?x=1', '/api/']) {
      const res = await get(server.url + path, { 'accept-encoding': 'gzip, deflate, br, zstd' })
      expect(res.status, path).toBe(200)
      expect(res.one('x-user-api'), path).toBe('yes')
      // The user's own on-the-fly gzip may compress it; preencode's headers never reach it.
      expect(decode(res.body, res.one('content-encoding')).toString(), path).toBe(API_BODY(path))
      expect(res.one('cache-control'), path).toBeUndefined()
      expect(res.one('vary') ?? '', path).not.toMatch(/available-dictionary/i)
    }
  })

  test('the redirect is a 301 with its Location', async ({ server }) => {
    const res = await get(server.url + USER_BLOCK.redirectFrom)
    expect(res.status).toBe(301)
    expect(new URL(res.one('location')!, server.url).href).toBe(`${server.url}${USER_BLOCK.redirectTo}`)
  })

  test("a missing page or file gets the user's 404 page", async ({ server, page }) => {
    for (const path of ['/no-such-page/', '/no-such.html', '/assets/missing.js', '/nothing-here']) {
      for (const ae of ['gzip, deflate, br, zstd', 'identity']) {
        const res = await get(server.url + path, { 'accept-encoding': ae })
        expect(res.status, `${path} ${ae}`).toBe(404)
        expect(decode(res.body, res.one('content-encoding')).toString(), `${path} ${ae}`).toBe(USER_BLOCK.notFoundBody)
      }
    }
    const response = await page.goto(`${server.url}/no-such-page/`)
    expect(response!.status()).toBe(404)
    await expect(page.locator('#user-404')).toHaveText('Our own 404 page')
  })
})
