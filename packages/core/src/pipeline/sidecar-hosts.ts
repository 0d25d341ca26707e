/**
 * Hosts that compress responses themselves and ignore uploaded `.br`/`.gz`/`.zst` files: on
 * them, writing sidecars only costs build minutes. One rule, read from the build's environment
 * by every entry point (the build runner behind the plugins and integrations, and the CLI's
 * `compress`), each documented by its host as set in every build:
 *
 * - Netlify: `NETLIFY=true` (https://docs.netlify.com/configure-builds/environment-variables/)
 * - Vercel: `VERCEL=1` (https://vercel.com/docs/environment-variables/system-environment-variables)
 * - Cloudflare Pages: `CF_PAGES=1` (https://developers.cloudflare.com/pages/configuration/build-configuration/)
 *
 * GitHub Pages is not detected: a Pages workflow is an ordinary Actions job (`GITHUB_ACTIONS=true`
 * for every job; `actions/configure-pages` sets step outputs, not variables), so nothing tells it
 * from a job that builds for a server that does use the sidecars.
 */

/** A host whose build environment says it ignores sidecars. */
export interface SidecarIgnoringHost {
  /** The host's name, e.g. `Netlify`. */
  name: string
  /** The variable and value that told, e.g. `NETLIFY=true`. */
  variable: string
}

const HOSTS: readonly { name: string; variable: string; value: string }[] = Object.freeze([
  { name: 'Netlify', variable: 'NETLIFY', value: 'true' },
  { name: 'Vercel', variable: 'VERCEL', value: '1' },
  { name: 'Cloudflare Pages', variable: 'CF_PAGES', value: '1' },
])

/** The host this build runs on, when it is one that ignores sidecars; else undefined. Pure. */
export function detectSidecarIgnoringHost(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SidecarIgnoringHost | undefined {
  const host = HOSTS.find((h) => env[h.variable] === h.value)
  return host && { name: host.name, variable: `${host.variable}=${host.value}` }
}

/**
 * The one line every entry point says when it skips the sidecars. `force` names how the user
 * asks for them anyway (`force: true` in an integration, `--force` on the CLI).
 */
export function sidecarsSkippedMessage(host: SidecarIgnoringHost, force: string): string {
  return `preencode: ${host.name} (${host.variable}) compresses responses itself and ignores .br/.gz/.zst files, so none were written. ${force} writes them anyway, for what serves them: a Cloudflare Worker, your own origin server (nginx, Apache, Caddy) or GitLab Pages (which serves .gz/.br siblings).`
}
