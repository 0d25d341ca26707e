// The Fetch handler under srvx, the server layer of h3 v2 and Nitro 3 (docs/servers/javascript.md#srvx-h3-and-nitro).
import { createPreencodeHandler } from '@preencode/server-config'
import { serve } from 'srvx'
import { HOST, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)

serve({
  hostname: HOST,
  port: PORT,
  silent: true,
  async fetch(request) {
    return (await preencode(request)) ?? new Response('Not found', { status: 404 })
  },
})
