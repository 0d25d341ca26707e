/**
 * Options of the Varnish generator, their frozen defaults and the resolver that validates
 * them, naming the option at fault.
 */
import type { OptionLabel } from '@preencode/core'
import { fail, KEY_LABEL } from '../shared/option-error.js'
import type { ServingOptions } from '../shared/policy.js'

/** `varnishConfig()`'s options; `backend` is required. */
export interface VarnishConfigOptions extends ServingOptions {
  /**
   * The origin Varnish fetches from, `host:port`: a name, an IPv4 address or a bracketed IPv6
   * address, and a port, e.g. `127.0.0.1:8080`, `origin.internal:80`, `[::1]:8080`. Required.
   */
  backend: string
  /**
   * How long a response the origin marks `no-cache` (HTML) stays stored after it went stale, so
   * Varnish revalidates it with a conditional request (a 304 from the origin reuses the stored
   * body) instead of fetching it whole every time. In seconds.
   * @default 86400
   */
  keepSeconds?: number
}

/** Varnish's own options, resolved: the backend parsed into host and port. */
export interface ResolvedVarnishOptions {
  host: string
  port: number
  keepSeconds: number
}

const DEFAULT_VARNISH_OPTIONS = Object.freeze({ keepSeconds: 86_400 } satisfies Pick<
  ResolvedVarnishOptions,
  'keepSeconds'
>)

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/

/** Splits and checks `host:port`; `label` names `backend` as the user set it. */
function parseBackend(value: unknown, label: OptionLabel = KEY_LABEL): { host: string; port: number } {
  const example = "e.g. '127.0.0.1:8080' or '[::1]:8080'"
  if (typeof value !== 'string' || value === '')
    fail(`${label('backend')} is ${JSON.stringify(value)}; varnishConfig needs the origin as host:port, ${example}.`)
  const colon = value.lastIndexOf(':')
  const host = colon > 0 ? value.slice(0, colon) : ''
  const portText = colon > 0 ? value.slice(colon + 1) : ''
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN
  if (!(port >= 1 && port <= 65_535) || !(HOST_NAME.test(host) || IPV6.test(host)))
    fail(
      `${label('backend')} is ${JSON.stringify(value)}; expected host:port with a port from 1 to 65535 (IPv6 in brackets), ${example}.`,
    )
  return { host: IPV6.test(host) ? host.slice(1, -1) : host, port }
}

export function resolveVarnishOptions(
  options: VarnishConfigOptions,
  label: OptionLabel = KEY_LABEL,
): ResolvedVarnishOptions {
  const keepSeconds = options.keepSeconds ?? DEFAULT_VARNISH_OPTIONS.keepSeconds
  if (!Number.isInteger(keepSeconds) || keepSeconds < 0)
    fail(`${label('keepSeconds')} is ${JSON.stringify(keepSeconds)}; use a whole number of seconds, 0 or more.`)
  return { ...parseBackend(options.backend, label), keepSeconds }
}
