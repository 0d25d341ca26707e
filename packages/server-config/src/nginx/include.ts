/**
 * nginx, include form (as h5bp's server configs do): two files for the user's own `server {}`
 * (TLS, redirects, `location /api { proxy_pass … }`, `error_page`…):
 * - `<prefix>-http.conf`, included in the http context: every `map` (accept-maps.ts and the rest);
 * - `<prefix>-server.conf`, included in the server block: the RFC 9842 gate (rewrite phase) and
 *   one `location /` with `root` and every other location nested in it. Nested, the regex
 *   locations are tried only for URLs whose longest prefix match is `/`: the user's own prefix
 *   locations (`location /api`) win for every URL under them, `.json` ones included, with no
 *   `^~` needed, and the user's `root` stays theirs.
 * The same locations as the standalone form (config.ts), so the same suite passes through both.
 */
import type { Manifest } from '@preencode/core'
import type { NginxConfigOptions } from '../shared/options.js'
import { indent, nginxParts } from './config.js'
import { nginxString as q } from './names.js'

/** The two files of the include form, by file name. */
export interface NginxIncludeFiles {
  /** `<prefix>-http.conf`: for the http context. */
  http: { name: string; text: string }
  /** `<prefix>-server.conf`: for inside your `server {}`. */
  server: { name: string; text: string }
}

/** Generates the include form's two files (`form` is taken as `include`). Pure. */
export function nginxIncludeFiles(manifest: Manifest, options: NginxConfigOptions): NginxIncludeFiles {
  const parts = nginxParts(manifest, { ...options, form: 'include' })
  const { resolved } = parts
  const httpName = `${resolved.prefix}-http.conf`
  const serverName = `${resolved.prefix}-server.conf`
  const http = [
    ...parts.head,
    `# nginx ${resolved.flavor} flavour, include form: in the http {} context (e.g. /etc/nginx/conf.d/),`,
    `# once per site; its server {} includes ${serverName}. Needs nginx >= 1.11.7.`,
    ...parts.notes,
    '',
    ...parts.maps,
  ]
  const server = [
    ...parts.head,
    `# nginx ${resolved.flavor} flavour, include form: inside your own server {} block, which keeps its`,
    `# listen, TLS, redirects and other locations; ${httpName} goes in the http {} context.`,
    '# It defines `location /`: your other locations are prefix ones (`location /api`) or exact ones,',
    "# and they win for every URL under them. Missing files get the site's 404.html; with notFoundPage: false",
    '# (`--not-found-page off`), your own error_page 404 answers them.',
    '',
    ...parts.serverRewrite,
    '',
    'location / {',
    ...indent([
      `root ${q(resolved.root)};`,
      'index index.html;',
      ...parts.errorPage,
      '',
      ...parts.rootBody,
      '',
      ...parts.dotfileLocation,
      '',
      ...parts.locations,
    ]),
    '}',
    '',
    ...parts.namedLocations,
  ]
  return {
    http: { name: httpName, text: `${http.join('\n')}\n` },
    server: { name: serverName, text: `${server.join('\n')}\n` },
  }
}
