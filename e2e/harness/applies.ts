// Which projects a test applies to. A test that cannot apply to a project (the site it serves,
// its transport, its server) carries a tag saying what it needs, and playwright.config.ts gives
// every project a grepInvert of the tags it lacks: the test is not declared there at all. So a
// skip in a run only ever means "missing on this machine" (fixtures.ts, runtimeCheck).
import { isRuntimeKind, RUNTIME_KINDS } from './runtimes/kinds.ts'
import { INCLUDE_KINDS, type ServerKind } from './server-files.ts'

/** Tags of tests that apply only to some projects (`test(title, { tag: ONLY.x }, …)`). */
export const ONLY = {
  /** A site built with keepOriginals: true (the browser suite runs there). */
  originals: '@only-originals',
  /** The site built with keepOriginals: false. */
  noOriginals: '@only-no-originals',
  /** An include form inside the user's own server block (INCLUDE_KINDS). */
  userBlock: '@only-user-block',
  /** Served over HTTP (a project without `tls`). */
  http: '@only-http',
  /** Served over HTTPS + HTTP/2 (a project with `tls: true`). */
  https: '@only-https',
  /** The Fetch handler on a JavaScript runtime (harness/runtimes/: Bun, Deno, Hono, srvx…). */
  runtime: '@only-runtime',
  /**
   * A server that answers a missing path with the site's 404.html: every generated config but the
   * include forms (the user's block has its own 404 page: `notFoundPage: false`), `preencode
   * serve`, the Worker. The middleware and the Fetch handler pass it on to the app (`fallthrough`).
   */
  notFoundPage: '@only-not-found-page',
  /** A server the harness can start a second time with `spa: true` (the SPA cases). */
  spa: '@only-spa',
} as const

/** Kinds that pass a missing path on to the app behind them: the middleware and the Fetch handler. */
const FALLTHROUGH_KINDS: readonly ServerKind[] = ['node', 'fetch-node', ...RUNTIME_KINDS]
/** Kinds the harness starts with `spa: true` (a `.htaccess` lives in the shared site folder: not twice). */
const SPA_KINDS: readonly ServerKind[] = [
  'nginx-modules',
  'nginx-stock',
  'nginx-include',
  'nginx-include-modules',
  'apache-vhost',
  'apache-include',
  'caddy',
  'caddy-include',
  'node',
  'fetch-node',
  'preencode-serve',
]

/** What a project's `use` says of it; unset means the fixtures' default (keepOriginals true, tls false). */
export interface ProjectFacts {
  serverKind?: ServerKind
  keepOriginals?: boolean
  tls?: boolean
}

/** The project's grepInvert: every tag whose need the project does not meet. */
export function inapplicable({ serverKind, keepOriginals = true, tls = false }: ProjectFacts): RegExp {
  // The fixtures' default kind is the middleware.
  const kind = serverKind ?? 'node'
  const lacks = [
    keepOriginals ? ONLY.noOriginals : ONLY.originals,
    tls ? ONLY.http : ONLY.https,
    ...(serverKind !== undefined && INCLUDE_KINDS.includes(serverKind) ? [] : [ONLY.userBlock]),
    ...(serverKind !== undefined && isRuntimeKind(serverKind) ? [] : [ONLY.runtime]),
    ...(INCLUDE_KINDS.includes(kind) || FALLTHROUGH_KINDS.includes(kind) ? [ONLY.notFoundPage] : []),
    ...(SPA_KINDS.includes(kind) ? [] : [ONLY.spa]),
  ]
  // Tags are joined to the title by spaces: match whole tags only.
  return new RegExp(`(^| )(${lacks.join('|')})( |$)`)
}
