// Fastify 5: the preencode plugin of docs/servers/javascript.md, or @fastify/static (defaults).
import fastifyStatic from '@fastify/static'
import { createPreencodeHandler } from '@preencode/server-config'
import Fastify from 'fastify'
import { HOST, MODE, PORT, ROOT } from './args.mjs'

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
preencode[Symbol.for('skip-override')] = true

const app = Fastify()
if (MODE === 'own') await app.register(fastifyStatic, { root: ROOT })
else await app.register(preencode, { root: ROOT })
await app.listen({ host: HOST, port: PORT })
