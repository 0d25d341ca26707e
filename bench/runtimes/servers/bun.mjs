// Bun.serve: the preencode handler; Bun's own way to serve a file (a Bun.file response, sent
// with sendfile; Bun has no precompressed-sibling lookup); or (`stored`) Bun.file of the stored
// `.br` beside the file with its Content-Encoding: the bytes the preencode handler sends for
// `Accept-Encoding: br, gzip`, so the two compare the sending alone (issue 35).
import { join } from 'node:path'
import { createPreencodeHandler } from '@preencode/server-config'
import { HOST, MODE, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)
const notFound = () => new Response('Not found', { status: 404 })
const pathOf = (request) => join(ROOT, decodeURIComponent(new URL(request.url).pathname))

async function own(request) {
  const file = Bun.file(pathOf(request))
  return (await file.exists()) ? new Response(file) : notFound()
}

async function stored(request) {
  const path = pathOf(request)
  const file = Bun.file(`${path}.br`)
  if (!(await file.exists())) return notFound()
  const headers = { 'Content-Type': Bun.file(path).type, 'Content-Encoding': 'br', Vary: 'Accept-Encoding' }
  return new Response(file, { headers })
}

const HANDLERS = { own, stored, preencode: async (request) => (await preencode(request)) ?? notFound() }

Bun.serve({ hostname: HOST, port: PORT, fetch: HANDLERS[MODE] })
