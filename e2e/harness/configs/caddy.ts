// Caddy around the generated config: the standalone site block (HTTP on 127.0.0.1, or HTTPS at
// TLS_HOST with our certificate: HTTP/2, and HTTP/3 on the same UDP port), or the include form
// imported into a hand-written site block of a user (user-block.ts).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { caddyConfig } from '@preencode/server-config'
import { caddyCommand, caddyGlobalOptions } from '@preencode/test-utils'
import { TLS_HOST } from '../tls.ts'
import { caddyUserSite } from '../user-block.ts'
import type { ServerFiles, WrapInput } from './shared.ts'

export async function writeCaddyFiles(
  form: 'standalone' | 'include',
  { manifest, root, dir, serve }: WrapInput,
): Promise<ServerFiles> {
  const { port, tls } = serve
  let generated: string
  let site: string
  if (form === 'include') {
    generated = caddyConfig(manifest, { ...serve.conventions, root, form: 'include' })
    await writeFile(join(dir, 'preencode.caddy'), generated)
    site = caddyUserSite(dir, serve, join(dir, 'preencode.caddy'))
    generated += `\n--- the user's site block ---\n${site}`
  } else if (tls) {
    generated = caddyConfig(manifest, { ...serve.conventions, root, address: `https://${TLS_HOST}:${port}` })
    // The one line a user adds for a certificate of their own.
    site = generated.replace(/^(https:\/\/\S+ \{)$/m, `$1\n\ttls ${tls.cert} ${tls.key}`)
  } else {
    generated = caddyConfig(manifest, { ...serve.conventions, root, address: `http://127.0.0.1:${port}` })
    site = generated
  }
  const global = tls
    ? ['\tdefault_bind 127.0.0.1', '\tservers {', `\t\tprotocols ${serve.h3 ? 'h1 h2 h3' : 'h1 h2'}`, '\t}']
    : []
  await writeFile(join(dir, 'Caddyfile'), `${caddyGlobalOptions(global)}\n${site}`)
  return { ...caddyCommand(dir), dir, generated }
}
