// The Fetch handler as h3 v2 middleware (Nitro 3's HTTP layer), served by h3's own `serve` (srvx)
// on Node (docs/servers/javascript.md#srvx-h3-and-nitro).
import { createPreencodeHandler } from '@preencode/server-config'
import { H3, serve } from 'h3'
import { HOST, PORT, ROOT } from './args.mjs'

const preencode = createPreencodeHandler(ROOT)
const app = new H3()
app.use(async (event, next) => (await preencode(event.req)) ?? next())
app.get('/api/hello', () => 'hello')

serve(app, { hostname: HOST, port: PORT, silent: true })
