// node:http: the preencode handler through the Fetch conversion of docs/servers/javascript.md
// ("Under Node"), or sirv (defaults, production mode).
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { createPreencodeHandler } from '@preencode/server-config'
import sirv from 'sirv'
import { HOST, MODE, PORT, ROOT } from './args.mjs'

function preencode() {
  const handle = createPreencodeHandler(ROOT)
  return async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      for (const item of [value ?? []].flat()) headers.append(name, item)
    const response = await handle(new Request(`http://localhost${req.url}`, { method: req.method, headers }))
    if (!response) return void res.writeHead(404).end()
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body) Readable.fromWeb(response.body).pipe(res)
    else res.end()
  }
}

const own = sirv(ROOT, { etag: true })
const handler = MODE === 'own' ? (req, res) => own(req, res, () => res.writeHead(404).end()) : preencode()
createServer(handler).listen(PORT, HOST)
