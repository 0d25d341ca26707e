/**
 * @preencode/server-config, the public API: the config generators (nginx, Apache, Caddy,
 * Varnish, CloudFront, Cloudflare Workers), the registry the CLI and the plugins name servers by,
 * the Node middleware and the Fetch handler, `verifySite`, and the platforms' documented limits.
 * Each name is documented where it is declared and in the README. The serving specification's
 * functions, the Worker runtime and the other building blocks stay inside the package: its tests
 * import them from the sources.
 */

// Negotiation, as every generated config implements it.

export { type Encoding, type Negotiated, negotiate } from './http/negotiate.js'

// The generators: manifest and options in, text out.

export { apacheConfig } from './apache/config.js'
export { caddyConfig, MIN_CADDY_VERSION } from './caddy/config.js'
export {
  type CloudflareWorkerFiles,
  type CloudflareWorkerOptions,
  cloudflareWorker,
  cloudflareWorkerFiles,
  cloudflareWrangler,
  type ResolvedCloudflareWorkerOptions,
} from './cloudflare/generate.js'
export {
  WORKER_MAX_ASSET_BYTES,
  WORKER_MAX_ASSET_FILES,
  WORKER_MAX_COMPRESSED_BYTES,
  WORKERS_PLANS,
  type WorkersPlan,
} from './cloudflare/limits.js'
export {
  CLOUDFRONT_FUNCTION_MAX_BYTES,
  type CloudfrontFunctionOptions,
  cloudfrontFunction,
  cloudfrontKeyValueStore,
  KEY_VALUE_STORE_MAX_BYTES,
  KEY_VALUE_STORE_MAX_KEY_BYTES,
  KEY_VALUE_STORE_MAX_VALUE_BYTES,
} from './cloudfront/function.js'
export { type ConventionOptions, DEFAULT_CONVENTIONS } from './http/conventions.js'
export { type NginxIncludeFiles, nginxConfig, nginxIncludeFiles } from './nginx/index.js'
export type {
  ApacheConfigOptions,
  ApacheForm,
  CaddyConfigOptions,
  NginxConfigOptions,
  NginxFlavor,
  ResolvedApacheOptions,
  ResolvedCaddyOptions,
  ResolvedNginxOptions,
  ServerForm,
} from './shared/options.js'
export type { ServingOptions } from './shared/policy.js'
export {
  MIN_VARNISH_VERSION,
  type ResolvedVarnishOptions,
  type VarnishConfigOptions,
  varnishConfig,
} from './varnish/index.js'

// The registry: one entry per server; the CLI `config` command and the plugins go through it.

export { resolveServerConfigFiles, type ServerConfigFile, serverConfigWriter } from './config-files.js'
export {
  isServer,
  type ResolvedServerOptionsMap,
  type RootNeed,
  SERVER_REGISTRY,
  SERVERS,
  type Server,
  type ServerCompanion,
  type ServerEntry,
  type ServerFiles,
  type ServerFlag,
  type ServerOptionsMap,
} from './registry.js'
export { type ServerConfigTarget, serverConfig, serverConfigFiles } from './render.js'
export { CONVENTION_FLAGS, type ConventionFlag } from './shared/conventions.js'

// The JavaScript servers: the site on disk, answered by the one serving specification.

export { SERVING_EXCEPTIONS, type ServingException, type ServingExceptionName } from './exceptions.js'
export { createPreencodeHandler, type PreencodeHandler, type PreencodeHandlerOptions } from './fetch/handler.js'
export { createPreencodeMiddleware, type NextFunction, type PreencodeMiddleware } from './node/middleware.js'
export type { PreencodeMiddlewareOptions } from './site/site.js'

// Checking a deployed site.

export {
  createSiteRunner,
  type ResolvedSiteOptions,
  resolveSiteOptions,
  type SiteLogger,
  type SiteOptions,
  type SiteRunner,
} from './site-runner.js'
export { resolveVerifySettings, type VerifySettings } from './verify/settings.js'
export {
  DEFAULT_PROBES,
  type EncodingProbe,
  type VerifyCheck,
  type VerifyOptions,
  type VerifyResult,
  verifySite,
} from './verify/verify.js'
