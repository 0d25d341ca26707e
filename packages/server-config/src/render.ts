/**
 * One entry point for every generator, so the CLI and the plugins pick a server by name the
 * same way (through the registry) and agree on the list of servers.
 */
import { type Manifest, userError } from '@preencode/core'
import {
  isServer,
  SERVER_REGISTRY,
  SERVERS,
  type Server,
  type ServerEntry,
  type ServerFiles,
  type ServerOptionsMap,
} from './registry.js'

/** A server and its generator's options, e.g. `{ server: 'nginx', flavor: 'stock', root: '/srv/site' }`. */
export type ServerConfigTarget = { [S in Server]: { server: S } & ServerOptionsMap[S] }[Server]

/** The config text for one target. */
export function serverConfig(manifest: Manifest, target: ServerConfigTarget): string {
  const { entry, options } = entryOf(target)
  return entry.generate(manifest, options)
}

/**
 * The files of a target whose config is several files (nginx's include form, the Cloudflare
 * Worker), else undefined.
 */
export function serverConfigFiles(manifest: Manifest, target: ServerConfigTarget): ServerFiles | undefined {
  const { entry, options } = entryOf(target)
  return entry.files?.(manifest, options)
}

/** The target's registry entry and its resolved options. */
function entryOf(target: ServerConfigTarget): { entry: ServerEntry<object>; options: object } {
  const { server, ...options } = target
  if (!isServer(server))
    throw userError('server-config', `Unknown server \`${String(server)}\`. Accepted: ${SERVERS.join(', ')}.`)
  const entry = SERVER_REGISTRY[server] as ServerEntry<object>
  return { entry, options: entry.resolveOptions(options) }
}
