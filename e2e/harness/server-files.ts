// The config root of each real server: the generated config (what a user commits) inside a
// wrapper of ours, or inside a hand-written block of a user (the include kinds, user-block.ts).
// Also used by the Vitest generator tests for the servers' own syntax checks.
import type { Manifest } from '@preencode/core'
import { checkServer, serverRoot } from '@preencode/test-utils'
import { writeApacheFiles } from './configs/apache.ts'
import { writeCaddyFiles } from './configs/caddy.ts'
import { writeNginxFiles } from './configs/nginx.ts'
import type { ServeOptions, ServerFiles } from './configs/shared.ts'
import type { RuntimeKind } from './runtimes/kinds.ts'

/** `*-include`: the include form inside a user's own TLS server block (with /api, a 404 page, a redirect). */
export type ConfiguredKind =
  | 'apache-htaccess'
  | 'apache-vhost'
  | 'apache-include'
  | 'nginx-modules'
  | 'nginx-stock'
  | 'nginx-include'
  | 'nginx-include-modules'
  | 'caddy'
  | 'caddy-include'

/** The JavaScript servers the harness runs itself under Node, with no config file. */
type JavaScriptKind = 'node' | 'fetch-node' | 'preencode-serve'

/**
 * Servers that run preencode's own code instead of a generated config: the Node middleware, the
 * Fetch handler under Node and `preencode serve`, the Worker in Miniflare (`cloudflare`) and in
 * `wrangler dev` (`cloudflare-dev`), and the Fetch handler on each other runtime (runtimes/kinds.ts).
 */
export type CodeKind = JavaScriptKind | 'cloudflare' | 'cloudflare-dev' | RuntimeKind

export type ServerKind = ConfiguredKind | CodeKind

export const INCLUDE_KINDS: readonly ServerKind[] = [
  'nginx-include',
  'nginx-include-modules',
  'apache-include',
  'caddy-include',
]

export type { ServeOptions, ServerFiles } from './configs/shared.ts'

/** Writes the wrapper config around the generated one for `kind`. */
export async function writeServerFiles(
  kind: ConfiguredKind,
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
