// The Fetch handler as Hono middleware, on Node (@hono/node-server), Bun or Deno, whichever runs
// this script (docs/servers/javascript.md#hono).
import { createPreencodeHandler } from '@preencode/server-config'
import { Hono } from 'hono'
import { HOST, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)
const app = new Hono()
app.use(async (c, next) => (await preencode(c.req.raw)) ?? next())
app.get('/api/hello', (c) => c.text('hello'))

if (globalThis.Bun) globalThis.Bun.serve({ hostname: HOST, port: PORT, fetch: app.fetch })
else if (globalThis.Deno) globalThis.Deno.serve({ hostname: HOST, port: PORT, onListen() {} }, app.fetch)
else {
  const { serve } = await import('@hono/node-server')
  serve({ fetch: app.fetch, hostname: HOST, port: PORT })
}
