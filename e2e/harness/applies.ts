// Which projects a test applies to. A test that cannot apply to a project (the site it serves,
// its transport, its server) carries a tag saying what it needs, and playwright.config.ts gives
// every project a grepInvert of the tags it lacks: the test is not declared there at all. So a
// skip in a run only ever means "missing on this machine" (fixtures.ts, runtimeCheck).
import { isRuntimeKind } from './runtimes/kinds.ts'
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
} as const

/** What a project's `use` says of it; unset means the fixtures' default (keepOriginals true, tls false). */
export interface ProjectFacts {
  serverKind?: ServerKind
  keepOriginals?: boolean
  tls?: boolean
}

/** The project's grepInvert: every tag whose need the project does not meet. */
export function inapplicable({ serverKind, keepOriginals = true, tls = false }: ProjectFacts): RegExp {
  const lacks = [
    keepOriginals ? ONLY.noOriginals : ONLY.originals,
    tls ? ONLY.http : ONLY.https,
    ...(serverKind !== undefined && INCLUDE_KINDS.includes(serverKind) ? [] : [ONLY.userBlock]),
    ...(serverKind !== undefined && isRuntimeKind(serverKind) ? [] : [ONLY.runtime]),
  ]
  // Tags are joined to the title by spaces: match whole tags only.
  return new RegExp(`(^| )(${lacks.join('|')})( |$)`)
}
