// The server configs @preencode/server-config generates for the serving benchmark's site, or
// why each one is missing. The only place that knows that package's API:
//   nginxConfig(manifest, { flavor, root, listen }) -> an http-context file (maps + one server)
//   apacheConfig(manifest, { form: 'htaccess' | 'vhost', root })
import { importBuilt, firstLine } from './util.ts'

export type NginxFlavor = 'modules' | 'stock'
export type ApacheForm = 'htaccess' | 'vhost'

export interface Generators {
  /** The nginx file for `listen`, or why there is none. */
  nginx(flavor: NginxFlavor, listen: string): Promise<string | { why: string }>
  apache(form: ApacheForm): Promise<string | { why: string }>
}

type Manifest = unknown
interface ServerConfigApi {
  nginxConfig: (manifest: Manifest, options: object) => string
  apacheConfig: (manifest: Manifest, options: object) => string
}

export async function generators(site: string): Promise<Generators | { why: string }> {
  const core = await importBuilt<{ readManifest: (root: string) => Promise<Manifest> }>('@preencode/core', [
    'readManifest',
  ])
  if ('why' in core) return core
  // The bench does not list @preencode/server-config; @preencode/vite depends on it.
  const api = await importBuilt<Partial<ServerConfigApi>>('@preencode/server-config', [])
  if ('why' in api) return api
  let manifest: Manifest
  try {
    manifest = await core.mod.readManifest(site)
  } catch (error) {
    return { why: firstLine(error) }
  }
  const call = async (name: keyof ServerConfigApi, options: object): Promise<string | { why: string }> => {
    const fn = api.mod[name]
    if (typeof fn !== 'function') return { why: `@preencode/server-config does not export ${name} yet` }
    try {
      return await fn(manifest, options)
    } catch (error) {
      return { why: `${name}(${JSON.stringify(options)}) threw: ${firstLine(error)}` }
    }
  }
  return {
    nginx: (flavor, listen) => call('nginxConfig', { flavor, root: site, listen, serverName: 'localhost' }),
    apache: (form) => call('apacheConfig', form === 'vhost' ? { form, root: site } : { form }),
  }
}
