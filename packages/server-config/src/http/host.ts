/**
 * The Host header (RFC 9110 §7.2): a name or an address, and an optional port — nothing that
 * could be read as a path, a query or a fragment. Deno builds `request.url` from Host unchecked
 * (`Host: 127.0.0.1/about/#` makes `GET /index.html` read `/about/`), so the Fetch handler and
 * the Node middleware answer a request whose Host holds anything else 400, on every runtime, as
 * RFC 9112 §3.2 requires of a server. An absent or empty Host (HTTP/2 sends `:authority`; RFC 9112 allows an empty one) is left alone.
 */

/** uri-host (a reg-name without percent-escapes, an IPv4 address, an IP-literal) and an optional port. */
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]*)?$/

/** Whether a request's Host header value is a host (and port); true when there is none. */
export function isValidHost(host: string | null | undefined): boolean {
  return host === null || host === undefined || host === '' || HOST.test(host)
}
