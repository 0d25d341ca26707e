/**
 * A request read once, the same way by every runtime: the Node middleware, the Fetch handler and
 * the Cloudflare Worker give `readRequest` the method, the request target and a way to read a
 * header, and get back what the serving specification reads (`RequestFacts`: the method and the
 * headers of `REQUEST_FACT_HEADERS`), where the request was asked (path and query, for a
 * redirect's Location) and where it goes (`targetOf`). What the adapter does with a request that
 * is not the site's (pass it on, or answer it) stays the adapter's.
 *
 * The Host check (`host.ts`) is the Node middleware's and the Fetch handler's, which serve from a
 * folder whatever Host says; the Worker is reached through the zone its Host names.
 */
import { REQUEST_FACT_HEADERS, type RequestFacts, type Target, targetOf } from './spec.js'

/** A request header by its lower-case name, as a runtime gives it: null or undefined when absent. */
export type HeaderReader = (name: string) => string | null | undefined

/** The path and query of the request as on the wire (for a redirect's Location). */
export interface RequestLocation {
  pathname: string
  search: string
}

/** A target of the site: a file or a hidden path. */
type SiteTarget = Exclude<Target, { kind: 'pass' }>

/** What a request is: for the site (with what the specification reads of it), or not. */
export type ReadRequest =
  /** A request target that is not a URL. */
  | { kind: 'unreadable' }
  /** Not a request for a file (another method, a path that does not decode). */
  | Extract<Target, { kind: 'pass' }>
  | { kind: 'site'; target: SiteTarget; location: RequestLocation; facts: RequestFacts }

/**
 * Reads a request: `method`, `requestTarget` (origin-form `/a/b?q` as Node gives it — `//a/b` is
 * a path, not a host — or an absolute URL as the Fetch API does), its headers through `header`,
 * and `index`, the file a URL ending in `/` names.
 */
export function readRequest(method: string, requestTarget: string, header: HeaderReader, index: string): ReadRequest {
  const location = locationOf(requestTarget)
  if (!location) return { kind: 'unreadable' }
  const target = targetOf(method, location.pathname, index)
  if (target.kind === 'pass') return target
  const headers: RequestFacts['headers'] = {}
  for (const name of REQUEST_FACT_HEADERS) {
    const value = header(name)
    if (value !== null && value !== undefined) headers[name] = value
  }
  return { kind: 'site', target, location, facts: { method, headers } }
}

/** The path and query of a request target: origin-form as is, absolute-form via URL. */
function locationOf(target: string): RequestLocation | undefined {
  if (target.startsWith('/')) {
    const pathname = target.replace(/[?#].*$/s, '')
    return { pathname, search: target.slice(pathname.length).replace(/#.*$/s, '') }
  }
  try {
    const { pathname, search } = new URL(target)
    return { pathname, search }
  } catch {
    return undefined
  }
}
