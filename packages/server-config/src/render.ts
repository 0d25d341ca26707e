/**
 * One entry point for every generator, so the CLI and the plugins pick a server by name the
 * same way and agree on the list of servers.
 */
import { userError, type Manifest } from '@preencode/core'
import { apacheConfig } from './apache.js'
import { caddyConfig } from './caddy.js'
import { cloudfrontFunction, type CloudfrontFunctionOptions } from './cloudfront.js'
import { nginxConfig } from './nginx.js'
import type { ApacheConfigOptions, CaddyConfigOptions, NginxConfigOptions } from './options.js'

export const SERVERS = ['apache', 'nginx', 'caddy', 'cloudfront'] as const
export type Server = (typeof SERVERS)[number]

/** A server and its generator's options, e.g. `{ server: 'nginx', flavor: 'stock', root: '/srv/site' }`. */
export type ServerConfigTarget =
  | ({ server: 'apache' } & ApacheConfigOptions)
  | ({ server: 'nginx' } & NginxConfigOptions)
  | ({ server: 'caddy' } & CaddyConfigOptions)
  | ({ server: 'cloudfront' } & CloudfrontFunctionOptions)

export function isServer(value: unknown): value is Server {
  return typeof value === 'string' && (SERVERS as readonly string[]).includes(value)
}

/** The config text for one target, generated from the manifest. */
export function serverConfig(manifest: Manifest, target: ServerConfigTarget): string {
  switch (target.server) {
    case 'apache': {
      const { server: _, ...options } = target
      return apacheConfig(manifest, options)
    }
    case 'nginx': {
      const { server: _, ...options } = target
      return nginxConfig(manifest, options)
    }
    case 'caddy': {
      const { server: _, ...options } = target
      return caddyConfig(manifest, options)
    }
    case 'cloudfront': {
      const { server: _, ...options } = target
      return cloudfrontFunction(manifest, options)
    }
    default:
      throw userError('server-config', `Unknown server \`${String((target as { server: unknown }).server)}\`. Accepted: ${SERVERS.join(', ')}.`)
  }
}
