// The config root of each real server: the generated config (what a user commits) inside a
// wrapper of ours, or inside a hand-written block of a user (the include kinds, user-block.ts).
// Also used by the Vitest generator tests for the servers' own syntax checks.
import type { Manifest } from '@preencode/core'
import { checkServer, serverRoot } from '@preencode/test-utils'
import { writeApacheFiles } from './configs/apache.ts'
import { writeCaddyFiles } from './configs/caddy.ts'
import { writeNginxFiles } from './configs/nginx.ts'
import type { ServeOptions, ServerFiles } from './configs/shared.ts'

/** `*-include`: the include form inside a user's own TLS server block (with /api, a 404 page, a redirect). */
export type ServerKind =
  | 'apache-htaccess'
  | 'apache-vhost'
  | 'apache-include'
  | 'nginx-modules'
  | 'nginx-stock'
  | 'nginx-include'
  | 'nginx-include-modules'
  | 'caddy'
  | 'caddy-include'
  | 'node'
  | 'fetch-node'
  | 'preencode-serve'
  | 'cloudflare'

export const INCLUDE_KINDS: readonly ServerKind[] = [
  'nginx-include',
  'nginx-include-modules',
  'apache-include',
  'caddy-include',
]

export { ON_THE_FLY_TYPES, type ServeOptions, type ServerFiles } from './configs/shared.ts'

/** The kinds that are JavaScript servers run by the harness itself, with no config file. */
export type JavaScriptKind = 'node' | 'fetch-node' | 'preencode-serve'

/** Writes the wrapper config around the generated one for `kind` (not a JavaScript server). */
export async function writeServerFiles(
  kind: Exclude<ServerKind, JavaScriptKind | 'cloudflare'>,
  manifest: Manifest,
  root: string,
  dir: string,
  serve: ServeOptions | number,
): Promise<ServerFiles> {
  const input = { manifest, root, dir, serve: typeof serve === 'number' ? { port: serve } : serve }
  await serverRoot(kind, dir)
  switch (kind) {
    case 'nginx-modules':
    case 'nginx-stock':
    case 'nginx-include':
    case 'nginx-include-modules':
      return writeNginxFiles(
        kind.endsWith('modules') ? 'modules' : 'stock',
        kind.startsWith('nginx-include') ? 'include' : 'standalone',
        input,
      )
    case 'apache-htaccess':
    case 'apache-vhost':
    case 'apache-include':
      return writeApacheFiles(
        kind === 'apache-htaccess' ? 'htaccess' : kind === 'apache-vhost' ? 'vhost' : 'include',
        input,
      )
    case 'caddy':
    case 'caddy-include':
      return writeCaddyFiles(kind === 'caddy' ? 'standalone' : 'include', input)
  }
}

/** Runs the server's own configuration check; returns its exit status and output. */
export function checkServerFiles(files: ServerFiles): { status: number | null; output: string } {
  return checkServer(files)
}
