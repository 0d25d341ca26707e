// The Fetch handler as a Fastify plugin: the snippet docs/servers/javascript.md#fastify shows,
// run as it is written there.
import { createPreencodeHandler } from '@preencode/server-config'
import Fastify from 'fastify'
import { HOST, PORT, ROOT } from './args.mjs'

/** Serves the preencoded site in `root` ahead of the app's routes; other paths go on to them. */
async function preencode(app, { root }) {
  const handle = createPreencodeHandler(root)
  app.addHook('onRequest', async (req, reply) => {
    const headers = new Headers()
    for (let i = 0; i < req.raw.rawHeaders.length; i += 2)
      headers.append(req.raw.rawHeaders[i], req.raw.rawHeaders[i + 1])
    const res = await handle(new Request(new URL(req.url, 'http://localhost'), { method: req.method, headers }))
    if (res) return reply.send(res)
  })
}
// Not encapsulated: the hook applies to the whole app (what the fastify-plugin wrapper does).
preencode[Symbol.for('skip-override')] = true

const app = Fastify()
await app.register(preencode, { root: ROOT })
app.get('/api/hello', async () => 'hello')
await app.listen({ host: HOST, port: PORT })
