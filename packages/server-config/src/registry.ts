/**
 * The server table: one entry per server with its options resolver, its generator, the files
 * it writes beside the config, and its CLI flags. `serverConfig()`, the CLI `config` command
 * and the plugins all go through it, so a new server is one file and one entry here.
 */
import type { Manifest, OptionLabel } from '@preencode/core'
import { apacheConfig } from './apache/config.js'
import { caddyConfig } from './caddy/config.js'
import {
  type CloudflareWorkerOptions,
  cloudflareWorker,
  cloudflareWorkerFiles,
  type ResolvedCloudflareWorkerOptions,
  resolveCloudflareOptions,
} from './cloudflare/generate.js'
import {
  type CloudfrontFunctionOptions,
  cloudfrontFunction,
  cloudfrontKeyValueStore,
  resolveCloudfrontOptions,
} from './cloudfront/function.js'
import { nginxConfig, nginxIncludeFiles } from './nginx/index.js'
import { CONVENTION_FLAGS, checkServingConventions } from './shared/conventions.js'
import {
  type ApacheConfigOptions,
  type CaddyConfigOptions,
  type NginxConfigOptions,
  type ResolvedApacheOptions,
  type ResolvedCaddyOptions,
  type ResolvedNginxOptions,
  resolveApacheOptions,
  resolveCaddyOptions,
  resolveNginxOptions,
} from './shared/options.js'
import {
  type ResolvedVarnishOptions,
  resolveVarnishOptions,
  type VarnishConfigOptions,
  varnishConfig,
} from './varnish/index.js'

/** The servers preencode writes configs for, as the CLI and `serverConfig()` name them. */
export const SERVERS = ['apache', 'nginx', 'caddy', 'cloudfront', 'varnish', 'cloudflare'] as const
/** One of `SERVERS`. */
export type Server = (typeof SERVERS)[number]

/** A CLI flag that sets one option of a server's generator. */
export interface ServerFlag {
  /** The option it sets. */
  option: string
  description: string
  valueHint?: string
  /** Turns the flag's text into the option's value (default: the text itself). */
  parse?: (value: string) => unknown
}

/** A file generated beside the config (e.g. CloudFront's KeyValueStore data), written by a CLI flag. */
export interface ServerCompanion<O> {
  /** The CLI flag that names where to write it. */
  flag: string
  description: string
  generate(manifest: Manifest, options: O): string
}

/**
 * What `root` names for a server's options: the site's absolute path on the server
 * (`server-path`: the CLI defaults it to `<dir>` made absolute, a plugin's `serverConfigs` entry
 * must give it), or the site folder seen from the folder the config's files are written to
 * (`from-output`: Cloudflare's `wrangler.jsonc`; the CLI computes it from `<dir>` and `--out`).
 */
export type RootNeed = 'server-path' | 'from-output'

/**
 * A config of several files: name -> text for the output folder (the CLI's `--out`, a plugin's
 * `path`), and files for the site folder (Cloudflare's `.assetsignore`).
 */
export interface ServerFiles {
  files: Record<string, string>
  siteFiles?: Record<string, string>
}

/** One server: `O` its user options, `R` the same options with the server's own fields resolved. */
export interface ServerEntry<O, R extends O = O> {
  readonly description: string
  /**
   * Validates the server-specific options; throws naming the option at fault, worded for
   * `label` (default: a direct call, the option's key).
   */
  resolveOptions(options: O, label?: OptionLabel): R
  /** Whether these options need `root`, and which kind; undefined when the config names no folder. */
  needsRoot(options: O): RootNeed | undefined
  /** The config text. Pure. */
  generate(manifest: Manifest, options: R): string
  /**
   * For options that make a config of several files (nginx's include form, the Cloudflare
   * Worker). Undefined: `generate`'s one text is the config.
   */
  files?(manifest: Manifest, options: R): ServerFiles | undefined
  readonly flags: Readonly<Record<string, ServerFlag>>
  readonly companions: readonly ServerCompanion<R>[]
}

/** Each server's generator options, by server name. */
export interface ServerOptionsMap {
  apache: ApacheConfigOptions
  nginx: NginxConfigOptions
  caddy: CaddyConfigOptions
  cloudfront: CloudfrontFunctionOptions
  varnish: VarnishConfigOptions
  cloudflare: CloudflareWorkerOptions
}

const ROOT_FLAG: ServerFlag = {
  option: 'root',
  description: 'Where the site lives on the server; default: <dir> made absolute',
  valueHint: 'path',
}
const IMMUTABLE_FLAG: ServerFlag = {
  option: 'immutable',
  description: 'Regex over the URL path of immutable (content-hashed) files; default: hashed names',
  valueHint: 'regex',
  parse: (value) => new RegExp(value),
}

/** Each server's options with its own fields resolved (the serving options resolve with the manifest). */
export interface ResolvedServerOptionsMap {
  apache: ApacheConfigOptions & ResolvedApacheOptions
  nginx: NginxConfigOptions & ResolvedNginxOptions
  caddy: CaddyConfigOptions & ResolvedCaddyOptions
  cloudfront: CloudfrontFunctionOptions
  varnish: VarnishConfigOptions & ResolvedVarnishOptions
  cloudflare: CloudflareWorkerOptions & ResolvedCloudflareWorkerOptions
}

const SERVER_PATH = (): RootNeed => 'server-path'
const NO_ROOT = (): undefined => undefined

/**
 * One entry per server: `resolveOptions`, `needsRoot`, `generate`, optionally `files`, its CLI
 * flags and companion files. `serverConfig()`, the plugins' `serverConfigs` and the CLI `config`
 * command go through it; none of them names a server.
 */
export const SERVER_REGISTRY: {
  readonly [S in Server]: ServerEntry<ServerOptionsMap[S], ResolvedServerOptionsMap[S]>
} = Object.freeze({
  apache: {
    description: '.htaccess (default) or vhost rules for Apache 2.4',
    resolveOptions: (options, label) => ({
      ...options,
      ...resolveApacheOptions(options, label),
      ...checkServingConventions(options, label),
    }),
    // A `.htaccess` sits in the site folder and names none; the vhost form's `<Directory>` does.
    needsRoot: (options) => (options.form === 'vhost' ? 'server-path' : undefined),
    generate: apacheConfig,
    flags: {
      form: { option: 'form', description: 'htaccess (default) or vhost', valueHint: 'htaccess|vhost' },
      root: { ...ROOT_FLAG, description: 'vhost: where the site lives on the server; default: <dir> made absolute' },
      immutable: IMMUTABLE_FLAG,
      ...CONVENTION_FLAGS,
    },
    companions: [],
  },
  nginx: {
    description: 'an http-context include (maps and one server block), or the include form for your own server block',
    resolveOptions: (options, label) => ({
      ...options,
      ...resolveNginxOptions(options, label),
      ...checkServingConventions(options, label),
    }),
    needsRoot: SERVER_PATH,
    generate: nginxConfig,
    files: (manifest, options) => {
      if (options.form !== 'include') return undefined
      const { http, server } = nginxIncludeFiles(manifest, options)
      return { files: { [http.name]: http.text, [server.name]: server.text } }
    },
    flags: {
      form: {
        option: 'form',
        description: 'standalone (default: maps + a server block) or include (two files for your own server block)',
        valueHint: 'standalone|include',
      },
      flavor: {
        option: 'flavor',
        description: 'stock (default; no extra module) or modules (gzip_static + brotli_static)',
        valueHint: 'stock|modules',
      },
      root: ROOT_FLAG,
      listen: { option: 'listen', description: 'listen parameters (default 80)' },
      'server-name': { option: 'serverName', description: 'server_name (default _)' },
      prefix: {
        option: 'prefix',
        description: 'prefix of the variables, for a second site in one nginx (default preencode)',
      },
      immutable: IMMUTABLE_FLAG,
      ...CONVENTION_FLAGS,
    },
    companions: [],
  },
  caddy: {
    description: 'a Caddyfile site block (Caddy >= 2.11)',
    resolveOptions: (options, label) => ({
      ...options,
      ...resolveCaddyOptions(options, label),
      ...checkServingConventions(options, label),
    }),
    needsRoot: SERVER_PATH,
    generate: caddyConfig,
    flags: {
      root: ROOT_FLAG,
      address: { option: 'address', description: 'site address (default :80; "" for the directives only)' },
      form: {
        option: 'form',
        description: 'standalone (default: a site block) or include (a handle block to import in yours)',
        valueHint: 'standalone|include',
      },
      immutable: IMMUTABLE_FLAG,
      ...CONVENTION_FLAGS,
    },
    companions: [],
  },
  cloudfront: {
    description: 'a CloudFront Function (viewer-request) and its KeyValueStore data',
    resolveOptions: resolveCloudfrontOptions,
    needsRoot: NO_ROOT,
    generate: cloudfrontFunction,
    flags: {
      'index-file': { option: 'indexFile', description: 'name appended to URIs ending in / (default index.html)' },
      'clean-urls': CONVENTION_FLAGS['clean-urls'],
      spa: CONVENTION_FLAGS.spa,
    },
    companions: [
      {
        flag: 'key-value-store',
        description: 'Also write the KeyValueStore data (import JSON) to this file',
        generate: cloudfrontKeyValueStore,
      },
    ],
  },
  varnish: {
    description: 'a VCL for a Varnish cache in front of the origin (Varnish >= 6.0)',
    resolveOptions: (options, label) => ({
      ...options,
      ...resolveVarnishOptions(options, label),
      ...checkServingConventions(options, label),
    }),
    needsRoot: NO_ROOT,
    generate: varnishConfig,
    flags: {
      backend: { option: 'backend', description: 'the origin as host:port (required)', valueHint: 'host:port' },
      ...CONVENTION_FLAGS,
    },
    companions: [],
  },
  cloudflare: {
    description: 'a Cloudflare Worker and wrangler.jsonc serving the site from its static assets (--out <folder>)',
    resolveOptions: resolveCloudflareOptions,
    needsRoot: (): RootNeed => 'from-output',
    generate: cloudflareWorker,
    files: cloudflareWorkerFiles,
    flags: {
      root: {
        option: 'root',
        description: 'cloudflare: the site folder as wrangler.jsonc names it; default: <dir> relative to --out',
        valueHint: 'path',
      },
      name: { option: 'name', description: 'the Worker name (default preencode-site)' },
      plan: {
        option: 'plan',
        description: 'Workers plan whose limits the site must fit (default free)',
        valueHint: 'free|paid',
      },
      'compatibility-date': { option: 'compatibilityDate', description: 'the Worker compatibility_date' },
      'index-file': { option: 'indexFile', description: 'name appended to URIs ending in / (default index.html)' },
      ...CONVENTION_FLAGS,
    },
    companions: [],
  },
})

/** Whether `value` names one of `SERVERS` (the CLI's `config <server>`). */
export function isServer(value: unknown): value is Server {
  return typeof value === 'string' && (SERVERS as readonly string[]).includes(value)
}
