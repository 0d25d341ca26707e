// Bun.serve: the preencode handler, or Bun's own way to serve a file (a Bun.file response, sent
// with sendfile; Bun has no precompressed-sibling lookup).
import { join } from 'node:path'
import { createPreencodeHandler } from '@preencode/server-config'
import { HOST, MODE, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)
const notFound = () => new Response('Not found', { status: 404 })

async function own(request) {
  const file = Bun.file(join(ROOT, decodeURIComponent(new URL(request.url).pathname)))
  return (await file.exists()) ? new Response(file) : notFound()
}

Bun.serve({
  hostname: HOST,
  port: PORT,
  fetch: MODE === 'own' ? own : async (request) => (await preencode(request)) ?? notFound(),
})
