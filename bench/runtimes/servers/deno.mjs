// Deno.serve: the preencode handler, or Hono's serveStatic for Deno (std/http's serveDir is on JSR
// only, which this machine cannot reach: runtimes/index.ts says so).
import { createPreencodeHandler } from '@preencode/server-config'
import { Hono } from 'hono'
import { serveStatic } from 'hono/deno'
import { HOST, MODE, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)
const notFound = () => new Response('Not found', { status: 404 })

let fetch = async (request) => (await preencode(request)) ?? notFound()
if (MODE === 'own') {
  const app = new Hono()
  app.use('*', serveStatic({ root: ROOT }))
  fetch = app.fetch
}
Deno.serve({ hostname: HOST, port: PORT, onListen() {} }, fetch)
