// nginx around the generated config: the standalone form in an http {} of ours (HTTP on
// 127.0.0.1, or HTTPS + HTTP/2 at TLS_HOST), or the include form inside a hand-written server
// block of a user (user-block.ts).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { nginxConfig, nginxIncludeFiles } from '@preencode/server-config'
import { NGINX_BROTLI_MODULE, nginxCommand, nginxMainConfig } from '@preencode/test-utils'
import { TLS_HOST } from '../tls.ts'
import { nginxUserServer } from '../user-block.ts'
import { ON_THE_FLY_TYPES, type ServerFiles, type WrapInput } from './shared.ts'

export async function writeNginxFiles(
  flavor: 'modules' | 'stock',
  form: 'standalone' | 'include',
  { manifest, root, dir, serve }: WrapInput,
): Promise<ServerFiles> {
  const { port, tls } = serve
  let site: string[]
  let generated: string
  if (form === 'include') {
    const files = nginxIncludeFiles(manifest, { flavor, root, ...serve.conventions })
    await writeFile(join(dir, files.http.name), files.http.text)
    await writeFile(join(dir, files.server.name), files.server.text)
    generated = `${files.http.text}\n${files.server.text}`
    const userServer = nginxUserServer(dir, serve, join(dir, files.server.name))
    await writeFile(join(dir, 'user-server.conf'), userServer)
    generated += `\n--- the user's server block ---\n${userServer}`
    site = [`include ${join(dir, files.http.name)};`, `include ${join(dir, 'user-server.conf')};`]
  } else {
    generated = nginxConfig(manifest, {
      flavor,
      root,
      ...serve.conventions,
      ...(tls
        ? {
            listen: `127.0.0.1:${port} ssl http2`,
            serverName: TLS_HOST,
            // nginx 1.22 offers TLS 1.3 only when told (1.23.4 made it the default).
            serverDirectives: [
              `ssl_certificate ${tls.cert}`,
              `ssl_certificate_key ${tls.key}`,
              'ssl_protocols TLSv1.2 TLSv1.3',
            ],
          }
        : { listen: `127.0.0.1:${port}`, serverName: 'localhost' }),
    })
    await writeFile(join(dir, 'site.conf'), generated)
    site = [`include ${join(dir, 'site.conf')};`]
  }
  await writeFile(
    join(dir, 'nginx.conf'),
    nginxMainConfig(dir, {
      main: flavor === 'modules' ? `load_module ${NGINX_BROTLI_MODULE};` : '',
      errorLog: 'stderr notice',
      http: [`    gzip on; gzip_types ${ON_THE_FLY_TYPES};`, ...site.map((l) => `    ${l}`)].join('\n'),
    }),
  )
  return { ...nginxCommand(dir), dir, generated }
}
