// The server configs @preencode/server-config generates for the serving benchmark's site, or
// why each one is missing. The only place of the bench that calls that package's generators.
import type { Manifest } from '@preencode/core'
import type { ApacheConfigOptions, ApacheForm, NginxConfigOptions, NginxFlavor } from '@preencode/server-config'
import { importBuilt } from '../lib/packages.ts'
import { firstLine } from '../lib/util.ts'

export interface Generators {
  /** The nginx file for `listen`, or why there is none. */
  nginx(flavor: NginxFlavor, listen: string): Promise<string | { why: string }>
  apache(form: ApacheForm): Promise<string | { why: string }>
}

export async function generators(site: string): Promise<Generators | { why: string }> {
  const core = await importBuilt('@preencode/core', ['readManifest'])
  if ('why' in core) return core
  const api = await importBuilt('@preencode/server-config', ['nginxConfig', 'apacheConfig'])
  if ('why' in api) return api
  let manifest: Manifest
  try {
    manifest = await core.mod.readManifest(site)
  } catch (error) {
    return { why: firstLine(error) }
  }
  const call = (name: string, options: object, generate: () => string): string | { why: string } => {
    try {
      return generate()
    } catch (error) {
      return { why: `${name}(${JSON.stringify(options)}) threw: ${firstLine(error)}` }
    }
  }
  return {
    nginx: async (flavor, listen) => {
      const options: NginxConfigOptions = { flavor, root: site, listen, serverName: 'localhost' }
      return call('nginxConfig', options, () => api.mod.nginxConfig(manifest, options))
    },
    apache: async (form) => {
      const options: ApacheConfigOptions = form === 'vhost' ? { form, root: site } : { form }
      return call('apacheConfig', options, () => api.mod.apacheConfig(manifest, options))
    },
  }
}
