// The Fetch handler under Bun.serve (docs/servers/javascript.md#bunserve).
import { createPreencodeHandler } from '@preencode/server-config'
import { HOST, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)

Bun.serve({
  hostname: HOST,
  port: PORT,
  async fetch(request) {
    return (await preencode(request)) ?? new Response('Not found', { status: 404 })
  },
})
