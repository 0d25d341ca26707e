// Apache around the generated config: `.htaccess` or the vhost form in a main server of ours
// (HTTP on 127.0.0.1, or HTTPS + HTTP/2 at TLS_HOST through mod_ssl and mod_http2), or the
// vhost form included in a hand-written <VirtualHost> of a user (user-block.ts).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { apacheConfig } from '@preencode/server-config'
import { apacheCommand, apacheMainConfig } from '@preencode/test-utils'
import { TLS_HOST } from '../tls.ts'
import { apacheUserVirtualHost } from '../user-block.ts'
import { ON_THE_FLY_TYPES, type ServerFiles, type WrapInput } from './shared.ts'

const MODULES = ['mpm_event', 'authz_core', 'dir', 'mime', 'rewrite', 'headers', 'env', 'filter', 'deflate']
const MORE_MODULES = ['setenvif', 'brotli', 'alias']
const TLS_MODULES = ['socache_shmcb', 'ssl', 'http2']
const PROXY_MODULES = ['proxy', 'proxy_http']

export async function writeApacheFiles(
  form: 'htaccess' | 'vhost' | 'include',
  { manifest, root, dir, serve }: WrapInput,
): Promise<ServerFiles> {
  const { port, tls } = serve
  let generated = apacheConfig(
    manifest,
    form === 'htaccess' ? { form, ...serve.conventions } : { form: 'vhost', root, ...serve.conventions },
  )
  let site: string[]
  if (form === 'htaccess') {
    await writeFile(join(root, '.htaccess'), generated)
    site = [
      `<Directory "${root}">`,
      '    AllowOverride FileInfo',
      '    Options FollowSymLinks',
      '    Require all granted',
      '</Directory>',
      'DirectoryIndex index.html',
    ]
  } else {
    await writeFile(join(dir, 'site.conf'), generated)
    site = [`Include ${join(dir, 'site.conf')}`]
  }
  if (form === 'include') {
    const vhost = apacheUserVirtualHost(dir, serve, root, join(dir, 'site.conf'))
    generated += `\n--- the user's VirtualHost ---\n${vhost}`
    site = vhost.split('\n')
  }
  const modules = [
    ...MODULES,
    ...MORE_MODULES,
    ...(tls ? TLS_MODULES : []),
    ...(form === 'include' ? PROXY_MODULES : []),
  ]
  const tlsLines =
    tls && form !== 'include'
      ? ['SSLEngine on', `SSLCertificateFile ${tls.cert}`, `SSLCertificateKeyFile ${tls.key}`, 'Protocols h2 http/1.1']
      : []
  await writeFile(
    join(dir, 'httpd.conf'),
    apacheMainConfig(dir, {
      port,
      modules,
      serverName: tls ? TLS_HOST : 'localhost',
      body: [
        ...(tls ? [`SSLSessionCache shmcb:${join(dir, 'tmp', 'ssl_scache')}(512000)`] : []),
        ...tlsLines,
        `AddOutputFilterByType DEFLATE ${ON_THE_FLY_TYPES}`,
        `AddOutputFilterByType BROTLI_COMPRESS ${ON_THE_FLY_TYPES}`,
        `DocumentRoot "${root}"`,
        '<Directory />',
        '    AllowOverride None',
        '    Require all denied',
        '</Directory>',
        '<Files ".ht*">',
        '    Require all denied',
        '</Files>',
        ...site,
      ].join('\n'),
    }),
  )
  return { ...apacheCommand(dir), dir, generated }
}
