/**
 * Options of the config generators, their frozen defaults and one resolver per generator that
 * validates and names the option at fault.
 */
import type { OptionLabel } from '@preencode/core'
import { fail, KEY_LABEL } from './option-error.js'
import type { ServingOptions } from './policy.js'

/** nginx with no extra module (`stock`), or with `gzip_static` and `brotli_static` (`modules`). */
export type NginxFlavor = 'modules' | 'stock'
/** A `.htaccess` for the site root, or the directives for a `<VirtualHost>` (the fast form). */
export type ApacheForm = 'htaccess' | 'vhost'
/** `standalone`: a whole server block (site). `include`: files to include in your own one. */
export type ServerForm = 'standalone' | 'include'

/** `nginxConfig()`'s and `nginxIncludeFiles()`'s options; `root` is required. */
export interface NginxConfigOptions extends ServingOptions {
  /**
   * `modules`: `gzip_static` + `brotli_static` (Debian's `libnginx-mod-http-brotli-static`)
   * answer clients that take no zstd; the rest goes through the stages. `stock`: no extra
   * module; `map`s and `alias` stages serve all three codings.
   * @default 'stock'
   */
  flavor?: NginxFlavor
  /**
   * `standalone`: one file for the http context, the `map`s and a whole `server {}` block.
   * `include`: two files for your own server (`nginxIncludeFiles()`): `<prefix>-http.conf` (the
   * `map`s, in the http context) and `<prefix>-server.conf` (one `location /` holding the rest,
   * inside your `server {}`); `listen`, `serverName` and `serverDirectives` are yours then.
   * @default 'standalone'
   */
  form?: ServerForm
  /** Absolute path of the site on the server (the `root` directive). Required. */
  root: string
  /**
   * `listen` parameters of the generated `server` block.
   * @default '80'
   */
  listen?: string
  /** @default '_' */
  serverName?: string
  /**
   * Prefix of every nginx variable and named location the config defines. nginx refuses a
   * variable defined twice, so two preencode sites in one nginx need different prefixes.
   * @default 'preencode'
   */
  prefix?: string
  /**
   * Extra directives placed verbatim at the top of the `server` block (TLS certificates,
   * `include` of your own snippets...), one per entry, without the trailing `;`.
   * @default []
   */
  serverDirectives?: string[]
}

/** `apacheConfig()`'s options. */
export interface ApacheConfigOptions extends ServingOptions {
  /**
   * `htaccess`: a `.htaccess` for the site root (needs `AllowOverride FileInfo`).
   * `vhost`: the same rules inside `<Directory root>`, to include in a `<VirtualHost>`.
   * @default 'htaccess'
   */
  form?: ApacheForm
  /** Absolute path of the site on the server; required for `vhost`, unused for `htaccess`. */
  root?: string
}

/** `caddyConfig()`'s options; `root` is required. */
export interface CaddyConfigOptions extends ServingOptions {
  /**
   * `standalone`: a site block for `address`. `include`: one `handle {}` block to `import` in
   * your own site block (your other `handle` blocks, `redir`s and `handle_errors` keep working).
   * @default 'standalone'
   */
  form?: ServerForm
  /** Absolute path of the site on the server (the `root` directive). Required. */
  root: string
  /**
   * The site address the block answers for; `''` emits only the directives, to paste into
   * an existing site block.
   * @default ':80'
   */
  address?: string
}

/** Server-specific options, resolved (the shared ServingOptions resolve in policy.ts). */
export type ResolvedNginxOptions = Required<Omit<NginxConfigOptions, keyof ServingOptions>>
/** Caddy's own options, resolved. */
export type ResolvedCaddyOptions = Required<Omit<CaddyConfigOptions, keyof ServingOptions>>
/** `root` stays undefined for a `.htaccess` without one (it needs none). */
export interface ResolvedApacheOptions {
  form: ApacheForm
  root: string | undefined
}

const DEFAULT_NGINX_OPTIONS = Object.freeze({
  flavor: 'stock',
  form: 'standalone',
  listen: '80',
  serverName: '_',
  prefix: 'preencode',
  serverDirectives: [],
} satisfies Omit<ResolvedNginxOptions, 'root'>)

const DEFAULT_APACHE_OPTIONS = Object.freeze({ form: 'htaccess' } satisfies Pick<Required<ApacheConfigOptions>, 'form'>)

const DEFAULT_CADDY_OPTIONS = Object.freeze({ address: ':80', form: 'standalone' } satisfies Omit<
  ResolvedCaddyOptions,
  'root'
>)

function checkRoot(root: unknown, generator: string, label: OptionLabel): string {
  if (typeof root !== 'string' || !root.startsWith('/')) {
    fail(
      `${label('root')} is ${JSON.stringify(root)}; ${generator} needs the absolute path of the site on the server, e.g. '/srv/www/site'.`,
    )
  }
  if (/["\\\n\r{}]/.test(root))
    fail(`${label('root')} ${JSON.stringify(root)} contains a quote, backslash, brace or newline; use a plain path.`)
  return root.replace(/\/+$/, '') || '/'
}

function checkForm(form: unknown, label: OptionLabel): ServerForm {
  if (form !== 'standalone' && form !== 'include')
    fail(`${label('form')} is ${JSON.stringify(form)}; accepted: 'standalone', 'include'.`)
  return form
}

function checkPrefix(prefix: unknown, label: OptionLabel): string {
  if (typeof prefix !== 'string' || !/^[a-z][a-z0-9_]{0,30}$/i.test(prefix)) {
    fail(
      `${label('prefix')} is ${JSON.stringify(prefix)}; use a letter followed by letters, digits or _ (at most 31), e.g. 'site_a'.`,
    )
  }
  return prefix
}

export function resolveNginxOptions(options: NginxConfigOptions, label: OptionLabel = KEY_LABEL): ResolvedNginxOptions {
  const flavor = options.flavor ?? DEFAULT_NGINX_OPTIONS.flavor
  if (flavor !== 'modules' && flavor !== 'stock')
    fail(`${label('flavor')} is ${JSON.stringify(flavor)}; accepted: 'modules', 'stock'.`)
  return {
    flavor,
    form: checkForm(options.form ?? DEFAULT_NGINX_OPTIONS.form, label),
    root: checkRoot(options.root, 'nginxConfig', label),
    listen: options.listen ?? DEFAULT_NGINX_OPTIONS.listen,
    serverName: options.serverName ?? DEFAULT_NGINX_OPTIONS.serverName,
    prefix: checkPrefix(options.prefix ?? DEFAULT_NGINX_OPTIONS.prefix, label),
    serverDirectives: options.serverDirectives ?? [...DEFAULT_NGINX_OPTIONS.serverDirectives],
  }
}

export function resolveApacheOptions(
  options: ApacheConfigOptions = {},
  label: OptionLabel = KEY_LABEL,
): ResolvedApacheOptions {
  const form = options.form ?? DEFAULT_APACHE_OPTIONS.form
  if (form !== 'htaccess' && form !== 'vhost')
    fail(`${label('form')} is ${JSON.stringify(form)}; accepted: 'htaccess', 'vhost'.`)
  const root =
    form === 'vhost' || options.root !== undefined
      ? checkRoot(options.root, "apacheConfig({ form: 'vhost' })", label)
      : undefined
  return { form, root }
}

export function resolveCaddyOptions(options: CaddyConfigOptions, label: OptionLabel = KEY_LABEL): ResolvedCaddyOptions {
  return {
    form: checkForm(options.form ?? DEFAULT_CADDY_OPTIONS.form, label),
    root: checkRoot(options.root, 'caddyConfig', label),
    address: options.address ?? DEFAULT_CADDY_OPTIONS.address,
  }
}
