// The Fetch handler under Deno.serve (docs/servers/javascript.md#denoserve).
import { createPreencodeHandler } from '@preencode/server-config'
import { HOST, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)

Deno.serve({ hostname: HOST, port: PORT, onListen() {} }, async (request) => {
  return (await preencode(request)) ?? new Response('Not found', { status: 404 })
})
