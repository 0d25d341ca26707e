// What every server's config writer shares.
import type { Manifest } from '@preencode/core'
import type { ConventionOptions, ServingOptions } from '@preencode/server-config'
import type { ServerCommand } from '@preencode/test-utils'
import type { TlsFiles } from '../tls.ts'

/** On-the-fly compression stays on in every harness config: the generated rules must keep it off their files. */
export const ON_THE_FLY_TYPES =
  'text/html text/css text/javascript application/javascript application/json text/plain image/svg+xml'

/** How a server is reached: its port, TLS (HTTPS + HTTP/2 at TLS_HOST) or not. */
export interface ServeOptions {
  port: number
  tls?: TlsFiles
  /** Caddy: HTTP/3 as well, on the same UDP port. */
  h3?: boolean
  /** The include kinds: the port of the user's API server their block proxies /api/ to. */
  apiPort?: number
  /** The static-host conventions the config is generated with (`spa: true` for the SPA cases). */
  conventions?: ConventionOptions & Pick<ServingOptions, 'notFoundPage'>
}

/** What every config writer wraps: the manifest of the site at `root`, the config dir, how it is reached. */
export interface WrapInput {
  manifest: Manifest
  /** The built site the server serves. */
  root: string
  /** The server's config root (test-utils' serverRoot). */
  dir: string
  serve: ServeOptions
}

/** How to run the server (test-utils' command for it) and what it serves. */
export interface ServerFiles extends ServerCommand {
  /** Directory holding the server's config, logs, pid and temp files. */
  dir: string
  /** The generated config (what a user would commit). */
  generated: string
}
