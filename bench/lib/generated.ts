// The server configs @preencode/server-config generates for the serving benchmark's site, or
// why each one is missing. The only place that knows that package's API.
import { importBuilt, firstLine } from './util.ts'

type Maybe = string | { why: string }

export type GeneratedConfigs =
  | { why: string }
  | { nginx: { modules: Maybe; stock: Maybe }; apache: { htaccess: Maybe; vhost: Maybe } }

type Manifest = unknown
interface ServerConfigApi {
  nginxConfig: (manifest: Manifest, options?: object) => string | Promise<string>
  apacheConfig: (manifest: Manifest, options?: object) => string | Promise<string>
}

export async function generatedConfigs(site: string): Promise<GeneratedConfigs> {
  const core = await importBuilt<{ readManifest: (root: string) => Promise<Manifest> }>('@preencode/core', ['readManifest'])
  if ('why' in core) return core
  const api = await importBuilt<Partial<ServerConfigApi>>('@preencode/server-config', [])
  if ('why' in api) return api
  let manifest: Manifest
  try {
    manifest = await core.mod.readManifest(site)
  } catch (error) {
    return { why: firstLine(error) }
  }
  const call = async (name: keyof ServerConfigApi, options: object): Promise<Maybe> => {
    const fn = api.mod[name]
    if (typeof fn !== 'function') return { why: `@preencode/server-config does not export ${name} yet` }
    try {
      return await fn(manifest, options)
    } catch (error) {
      return { why: `${name}(${JSON.stringify(options)}) threw: ${firstLine(error)}` }
    }
  }
  return {
    nginx: { modules: await call('nginxConfig', { flavor: 'modules' }), stock: await call('nginxConfig', { flavor: 'stock' }) },
    apache: { htaccess: await call('apacheConfig', { form: 'htaccess' }), vhost: await call('apacheConfig', { form: 'vhost', root: site }) },
  }
}
