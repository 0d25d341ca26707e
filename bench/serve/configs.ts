// The server configurations the serving part compares, each a way to start a real server on
// the same site: nginx on-the-fly, hand-written static, generated (two flavours); Apache
// mod_deflate, generated .htaccess and vhost. A generator that is missing or throws becomes a
// "skipped" configuration with the reason.
import { chmod, cp, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Generators } from './generated.ts'
import { BROTLI_STATIC_MODULE, type Server, startBenchApache, startBenchNginx } from './servers.ts'

export type ConfigId =
  | 'nginx-onthefly'
  | 'nginx-static'
  | 'nginx-generated-modules'
  | 'nginx-generated-stock'
  | 'apache-deflate'
  | 'apache-generated-htaccess'
  | 'apache-generated-vhost'

export interface ServerConfig {
  id: ConfigId
  label: string
  start?: (dir: string) => Promise<Server>
  skip?: string
}

export async function serverConfigs(site: string, generated: Generators | { why: string }): Promise<ServerConfig[]> {
  const brotliModule = `load_module ${BROTLI_STATIC_MODULE};`
  const configs: ServerConfig[] = [
    {
      id: 'nginx-onthefly',
      label: 'nginx on-the-fly gzip 6',
      start: (d) =>
        startBenchNginx(d, site, () => ({
          server:
            'gzip on;\ngzip_comp_level 6;\ngzip_vary on;\ngzip_types text/css application/javascript text/javascript application/json image/svg+xml;',
        })),
    },
    {
      id: 'nginx-static',
      label: 'nginx hand-written gzip_static + brotli_static',
      start: (d) =>
        startBenchNginx(d, site, () => ({
          main: brotliModule,
          server: 'gzip_static on;\nbrotli_static on;\ngzip_vary on;',
        })),
    },
  ]
  // Stock (the default) right after hand-written static: the ratio the target reads is between adjacent runs.
  for (const flavor of ['stock', 'modules'] as const) {
    const id: ConfigId = flavor === 'modules' ? 'nginx-generated-modules' : 'nginx-generated-stock'
    const label = `nginx generated (${flavor})`
    // A dry call first, so a missing or throwing generator is a "skipped" row, not a failure.
    const probeText = 'why' in generated ? generated : await generated.nginx(flavor, '127.0.0.1:8080')
    if (typeof probeText !== 'string') {
      configs.push({ id, label, skip: probeText.why })
      continue
    }
    configs.push({
      id,
      label,
      start: (d) =>
        startBenchNginx(d, site, async (port) => {
          const text = await (generated as Generators).nginx(flavor, `127.0.0.1:${port}`)
          if (typeof text !== 'string') throw new Error(text.why)
          // The file is for the http context; the modules flavour needs its module in the main one.
          return { main: flavor === 'modules' ? brotliModule : '', http: text, server: null }
        }),
    })
  }
  configs.push({
    id: 'apache-deflate',
    label: 'Apache mod_deflate (Debian default)',
    start: (d) => startBenchApache(d, site, { server: DEBIAN_DEFLATE_CONF }),
  })
  const htaccess = 'why' in generated ? generated : await generated.apache('htaccess')
  configs.push(
    typeof htaccess === 'string'
      ? {
          id: 'apache-generated-htaccess',
          label: 'Apache generated .htaccess',
          start: async (d) => {
            // A docroot of its own, so the .htaccess does not reach the other Apache configurations.
            const root = join(d, 'root')
            await cp(site, root, { recursive: true })
            await writeFile(join(root, '.htaccess'), htaccess)
            await chmodTree(root)
            return startBenchApache(d, root, {})
          },
        }
      : { id: 'apache-generated-htaccess', label: 'Apache generated .htaccess', skip: htaccess.why },
  )
  const vhost = 'why' in generated ? generated : await generated.apache('vhost')
  configs.push(
    typeof vhost === 'string'
      ? {
          id: 'apache-generated-vhost',
          label: 'Apache generated vhost',
          start: (d) => startBenchApache(d, site, { server: vhost }),
        }
      : { id: 'apache-generated-vhost', label: 'Apache generated vhost', skip: vhost.why },
  )
  return configs
}

/** /etc/apache2/mods-available/deflate.conf on Debian, i.e. what `a2enmod deflate` turns on. */
const DEBIAN_DEFLATE_CONF = `<IfModule mod_filter.c>
  AddOutputFilterByType DEFLATE text/html text/plain text/xml text/css text/javascript
  AddOutputFilterByType DEFLATE application/x-javascript application/javascript application/ecmascript
  AddOutputFilterByType DEFLATE application/rss+xml
  AddOutputFilterByType DEFLATE application/wasm
  AddOutputFilterByType DEFLATE application/xml
</IfModule>`

async function chmodTree(root: string): Promise<void> {
  await chmod(root, 0o755)
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    await chmod(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644)
  }
}
