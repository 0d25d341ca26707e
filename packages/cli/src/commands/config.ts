import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { reconcileManifest, userError } from '@preencode/core'
import { apacheConfig, caddyConfig, cloudfrontFunction, isServer, nginxConfig, SERVERS } from '@preencode/server-config'
import { defineCommand } from 'citty'
import { assertKnownFlags, createLogger } from '../cli-utils.js'

const args = {
  server: { type: 'positional', description: `One of ${SERVERS.join(', ')}`, required: true },
  dir: { type: 'positional', description: 'The compressed site (holding .preencode-manifest.json)', required: true },
  flavor: { type: 'string', description: 'nginx: modules (gzip_static + brotli_static) or stock (map + try_files; default)', valueHint: 'modules|stock' },
  form: { type: 'string', description: 'apache: htaccess (default) or vhost', valueHint: 'htaccess|vhost' },
  root: { type: 'string', description: 'Where the site lives on the server (nginx, caddy, apache vhost); default: <dir> made absolute', valueHint: 'path' },
  listen: { type: 'string', description: 'nginx: listen parameters (default 80)' },
  serverName: { type: 'string', description: 'nginx: server_name (default _)' },
  prefix: { type: 'string', description: 'nginx: prefix of the variables, for a second site in one nginx (default preencode)' },
  address: { type: 'string', description: 'caddy: site address (default :80; "" for the directives only)' },
  out: { type: 'string', description: 'Write to this file instead of stdout', valueHint: 'file' },
} as const

/**
 * `preencode config <apache|nginx|caddy|cloudfront> <dir>`: prints (or writes with `--out`) the
 * server config generated from the manifest in `<dir>`.
 */
export const configCommand = defineCommand({
  meta: { name: 'config', description: 'Generate the Apache, nginx, Caddy or CloudFront config that serves the variants' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const server = String(parsed.server)
    if (!isServer(server)) throw userError('cli', `Unknown server \`${server}\`. Accepted: ${SERVERS.join(', ')}.`)
    if (parsed.flavor !== undefined && server !== 'nginx') throw userError('cli', '--flavor applies to nginx only.')
    if (parsed.form !== undefined && server !== 'apache') throw userError('cli', '--form applies to apache only.')
    for (const flag of ['listen', 'serverName', 'prefix'] as const) {
      if (parsed[flag] !== undefined && server !== 'nginx') throw userError('cli', `--${flag === 'serverName' ? 'server-name' : flag} applies to nginx only.`)
    }
    if (parsed.address !== undefined && server !== 'caddy') throw userError('cli', '--address applies to caddy only.')
    const dir = resolve(parsed.dir)
    // Brought up to date with the disk first: a post-build step may have added or edited files.
    const { manifest } = await reconcileManifest(dir, { logger: createLogger() })
    const root = parsed.root ?? dir
    let text: string
    switch (server) {
      case 'nginx':
        text = nginxConfig(manifest, {
          flavor: (parsed.flavor ?? 'stock') as 'modules' | 'stock',
          root,
          ...(parsed.listen === undefined ? {} : { listen: parsed.listen }),
          ...(parsed.serverName === undefined ? {} : { serverName: parsed.serverName }),
          ...(parsed.prefix === undefined ? {} : { prefix: parsed.prefix }),
        })
        break
      case 'apache': {
        const form = (parsed.form ?? 'htaccess') as 'htaccess' | 'vhost'
        text = apacheConfig(manifest, form === 'vhost' ? { form, root } : { form })
        break
      }
      case 'caddy':
        text = caddyConfig(manifest, { root, ...(parsed.address === undefined ? {} : { address: parsed.address }) })
        break
      case 'cloudfront':
        text = cloudfrontFunction(manifest)
        break
    }
    if (parsed.out === undefined) {
      process.stdout.write(text)
      return
    }
    const out = resolve(parsed.out)
    await mkdir(dirname(out), { recursive: true })
    await writeFile(out, text)
    process.stderr.write(`wrote ${out}\n`)
  },
})
