/**
 * @preencode/server-config, the public API: the config generators (nginx, Apache, Caddy,
 * Varnish, CloudFront, Cloudflare Workers), the registry the CLI and the plugins name servers by,
 * the Node middleware and the Fetch handler, `verifySite`, and the platforms' documented limits.
 * Each name is documented where it is declared and in the README. The serving specification's
 * functions, the Worker runtime and the other building blocks stay inside the package: its tests
 * import them from the sources.
 */

// Negotiation, as every generated config implements it.
export { negotiate, type Encoding, type Negotiated } from './http/negotiate.js'

// The generators: manifest and options in, text out.
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
export { DEFAULT_CONVENTIONS, type ConventionOptions } from './http/conventions.js'
export { nginxConfig, nginxIncludeFiles, type NginxIncludeFiles } from './nginx/index.js'
export { apacheConfig } from './apache/config.js'
export { caddyConfig, MIN_CADDY_VERSION } from './caddy/config.js'
export {
  varnishConfig,
  MIN_VARNISH_VERSION,
  type ResolvedVarnishOptions,
  type VarnishConfigOptions,
} from './varnish/index.js'
export {
  cloudfrontFunction,
  cloudfrontKeyValueStore,
  CLOUDFRONT_FUNCTION_MAX_BYTES,
  KEY_VALUE_STORE_MAX_BYTES,
  KEY_VALUE_STORE_MAX_KEY_BYTES,
  KEY_VALUE_STORE_MAX_VALUE_BYTES,
  type CloudfrontFunctionOptions,
} from './cloudfront/function.js'
export {
  cloudflareWorker,
  cloudflareWorkerFiles,
  cloudflareWrangler,
  type CloudflareWorkerFiles,
  type CloudflareWorkerOptions,
  type ResolvedCloudflareWorkerOptions,
} from './cloudflare/generate.js'
export {
  WORKER_MAX_ASSET_BYTES,
  WORKER_MAX_ASSET_FILES,
  WORKER_MAX_COMPRESSED_BYTES,
  WORKERS_PLANS,
  type WorkersPlan,
} from './cloudflare/limits.js'

// The registry: one entry per server; the CLI `config` command and the plugins go through it.
export {
  SERVER_REGISTRY,
  SERVERS,
  isServer,
  type Server,
  type ServerEntry,
  type ServerFlag,
  type ServerCompanion,
  type ServerFiles,
  type ServerOptionsMap,
  type ResolvedServerOptionsMap,
  type RootNeed,
} from './registry.js'
export { CONVENTION_FLAGS, type ConventionFlag } from './shared/conventions.js'
export { serverConfig, serverConfigFiles, type ServerConfigTarget } from './render.js'
export { resolveServerConfigFiles, serverConfigWriter, type ServerConfigFile } from './config-files.js'

// The JavaScript servers: the site on disk, answered by the one serving specification.
export { createPreencodeMiddleware, type PreencodeMiddleware, type NextFunction } from './node/middleware.js'
export type { PreencodeMiddlewareOptions } from './site/site.js'
export { createPreencodeHandler, type PreencodeHandler, type PreencodeHandlerOptions } from './fetch/handler.js'
export { SERVING_EXCEPTIONS, type ServingException, type ServingExceptionName } from './exceptions.js'

// Checking a deployed site.
export { resolveVerifySettings, type VerifySettings } from './verify/settings.js'
export {
  verifySite,
  DEFAULT_PROBES,
  type EncodingProbe,
  type VerifyCheck,
  type VerifyOptions,
  type VerifyResult,
} from './verify/verify.js'
export {
  createSiteRunner,
  resolveSiteOptions,
  type ResolvedSiteOptions,
  type SiteLogger,
  type SiteOptions,
  type SiteRunner,
} from './site-runner.js'
