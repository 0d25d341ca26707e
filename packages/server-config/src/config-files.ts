/**
 * Server configs that build integrations write after each build (`serverConfigs: [...]` in the
 * Vite and Rollup plugins): validated once when the plugin starts, written by the shared build
 * runner from each build's manifest, only when their text changed.
 */
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { type ErrorComponent, type Manifest, userError } from '@preencode/core'
import { writeFileAtomically } from '@preencode/core/internal'
import { isServer, SERVER_REGISTRY, SERVERS, type ServerEntry } from './registry.js'
import { type ServerConfigTarget, serverConfig, serverConfigFiles } from './render.js'

/** A server config to write: the generator's options plus where the file goes. */
export type ServerConfigFile = ServerConfigTarget & {
  /** Where to write it, relative to the project root (or absolute); a folder for nginx's include form. */
  path: string
}

/**
 * Validates `serverConfigs` and makes every `path` absolute; fails naming the entry.
 * `component` names the integration in messages (`vite`, `rollup`).
 */
export function resolveServerConfigFiles(files: unknown, root: string, component: ErrorComponent): ServerConfigFile[] {
  if (!Array.isArray(files))
    throw userError(component, '`serverConfigs` must be an array of { server, path, ...options }.')
  return files.map((file: unknown, index) => {
    const where = `serverConfigs[${index}]`
    if (file === null || typeof file !== 'object')
      throw userError(
        component,
        `\`${where}\` must be an object like { server: 'nginx', root: '/srv/site', path: 'deploy/nginx.conf' }.`,
      )
    const { server, path } = file as { server?: unknown; path?: unknown }
    if (!isServer(server))
      throw userError(component, `\`${where}.server\` is ${JSON.stringify(server)}; accepted: ${SERVERS.join(', ')}.`)
    if (typeof path !== 'string' || path === '')
      throw userError(component, `\`${where}.path\` must name the file to write, e.g. 'deploy/${server}.conf'.`)
    const { server: _, path: __, ...options } = file as ServerConfigFile
    const entry = SERVER_REGISTRY[server] as ServerEntry<object>
    const needs = entry.needsRoot(options)
    if (needs === 'from-output')
      throw userError(
        component,
        `\`${where}\` (${server}) writes a folder of files and a file into the site; run \`preencode config ${server} <dir> --out <folder>\` after the build instead.`,
      )
    if (needs === 'server-path' && typeof (options as { root?: unknown }).root !== 'string') {
      throw userError(
        component,
        `\`${where}\` (${server}) needs \`root\`: the absolute path of the site on the server, e.g. '/srv/www/site'.`,
      )
    }
    // The server's own resolver (the registry), so a bad option fails when the plugin starts,
    // naming the entry (`serverConfigs[0].flavor` (nginx)).
    entry.resolveOptions(options, (key) => `\`${key ? `${where}.${key}` : where}\` (${server})`)
    return { ...(file as ServerConfigFile), path: resolve(root, path) }
  })
}

/**
 * The build runner's `writeServerConfigs`: generates each config from the manifest and writes
 * the ones whose text changed (atomically); resolves to those paths. Undefined for no files.
 */
export function serverConfigWriter(
  files: readonly ServerConfigFile[],
): ((manifest: Manifest) => Promise<string[]>) | undefined {
  if (files.length === 0) return undefined
  return async (manifest) => {
    const written: string[] = []
    for (const { path, ...target } of files) {
      // A config of several files (nginx's include form): `path` is their folder.
      const several = serverConfigFiles(manifest, target as ServerConfigTarget)?.files
      const outputs = several
        ? Object.entries(several).map(([name, text]) => [join(path, name), text] as const)
        : [[path, serverConfig(manifest, target as ServerConfigTarget)] as const]
      for (const [file, text] of outputs) {
        if ((await readFile(file, 'utf8').catch(() => undefined)) === text) continue
        await mkdir(dirname(file), { recursive: true })
        await writeFileAtomically(file, text)
        written.push(file)
      }
    }
    return written
  }
}
