// What a user already has before preencode: a server block of their own with TLS, a `/api/`
// proxied to an application server, a custom 404 page and a redirect; the include form goes
// into it (docs/servers/*.md show these blocks first). Also the application server (Node) the
// blocks proxy to, and the 404 page, which lives outside the site like a user's own files.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import type { ServeOptions } from './configs/shared.ts'
import { TLS_HOST } from './tls.ts'

/** The user's own locations, asserted by e2e/tests/user-block.spec.ts. */
export const USER_BLOCK = Object.freeze({
  /** Proxied to the Node server, which answers `API_BODY(path)`. */
  api: '/api/',
  /** `301` to `redirectTo`. */
  redirectFrom: '/old-page',
  redirectTo: '/about/',
  notFoundBody: '<!doctype html><title>Not here</title><h1 id="user-404">Our own 404 page</h1>\n',
})

export const API_BODY = (path: string): string => JSON.stringify({ from: 'the user api', path })

/** The user's application server: answers every request with API_BODY and a header of its own. */
export async function startApiServer(port: number): Promise<{ stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-user-api': 'yes' })
    res.end(API_BODY(req.url ?? ''))
  })
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done))
  return {
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

/** The user's own error pages, outside the site. */
function errorPages(dir: string): string {
  const errors = join(dir, 'errors')
  mkdirSync(errors, { recursive: true })
  writeFileSync(join(errors, '404.html'), USER_BLOCK.notFoundBody)
  return errors
}

function need(serve: ServeOptions): { tls: NonNullable<ServeOptions['tls']>; apiPort: number } {
  if (!serve.tls || serve.apiPort === undefined) throw new Error('a user block needs TLS and the API port')
  return { tls: serve.tls, apiPort: serve.apiPort }
}

/** nginx: the user's server {}, with preencode's http-level file included beside it. */
export function nginxUserServer(dir: string, serve: ServeOptions, include: string): string {
  const { tls, apiPort } = need(serve)
  return `${[
    'server {',
    `    listen 127.0.0.1:${serve.port} ssl http2;`,
    `    server_name ${TLS_HOST};`,
    `    ssl_certificate ${tls.cert};`,
    `    ssl_certificate_key ${tls.key};`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    '',
    '    location /api/ {',
    `        proxy_pass http://127.0.0.1:${apiPort};`,
    '    }',
    `    location = ${USER_BLOCK.redirectFrom} { return 301 ${USER_BLOCK.redirectTo}; }`,
    '    error_page 404 /404.html;',
    '    location = /404.html {',
    `        root ${errorPages(dir)};`,
    '        internal;',
    '    }',
    '',
    `    include ${include};`,
    '}',
  ].join('\n')}\n`
}

/** Apache: the user's <VirtualHost>, with the generated vhost form included in it. */
export function apacheUserVirtualHost(dir: string, serve: ServeOptions, root: string, include: string): string {
  const { tls, apiPort } = need(serve)
  return `${[
    `<VirtualHost 127.0.0.1:${serve.port}>`,
    `    ServerName ${TLS_HOST}`,
    '    SSLEngine on',
    `    SSLCertificateFile ${tls.cert}`,
    `    SSLCertificateKeyFile ${tls.key}`,
    '    Protocols h2 http/1.1',
    `    DocumentRoot "${root}"`,
    '',
    `    ProxyPass ${USER_BLOCK.api} http://127.0.0.1:${apiPort}${USER_BLOCK.api}`,
    `    ProxyPassReverse ${USER_BLOCK.api} http://127.0.0.1:${apiPort}${USER_BLOCK.api}`,
    `    Redirect permanent ${USER_BLOCK.redirectFrom} ${USER_BLOCK.redirectTo}`,
    `    Alias /errors/ ${errorPages(dir)}/`,
    `    <Directory ${join(dir, 'errors')}>`,
    '        Require all granted',
    '    </Directory>',
    '    ErrorDocument 404 /errors/404.html',
    '',
    `    Include ${include}`,
    '</VirtualHost>',
  ].join('\n')}\n`
}

/** Caddy: the user's site block, importing the generated snippet. */
export function caddyUserSite(dir: string, serve: ServeOptions, include: string): string {
  const { tls, apiPort } = need(serve)
  return `${[
    `https://${TLS_HOST}:${serve.port} {`,
    `\ttls ${tls.cert} ${tls.key}`,
    '',
    `\thandle ${USER_BLOCK.api}* {`,
    `\t\treverse_proxy 127.0.0.1:${apiPort}`,
    '\t}',
    `\tredir ${USER_BLOCK.redirectFrom} ${USER_BLOCK.redirectTo} 301`,
    '\thandle_errors 404 {',
    `\t\troot * ${errorPages(dir)}`,
    '\t\trewrite * /404.html',
    '\t\tfile_server',
    '\t}',
    '',
    `\timport ${include}`,
    '}',
  ].join('\n')}\n`
}
