export {
  isAcceptable,
  negotiate,
  parseAcceptEncoding,
  type Encoding,
  type Negotiated,
  type ParsedAcceptEncoding,
} from './http/negotiate.js'
export {
  DEFAULT_APACHE_OPTIONS,
  DEFAULT_CADDY_OPTIONS,
  DEFAULT_NGINX_OPTIONS,
  resolveApacheOptions,
  resolveCaddyOptions,
  resolveNginxOptions,
  type ApacheConfigOptions,
  type ApacheForm,
  type CaddyConfigOptions,
  type NginxConfigOptions,
  type NginxFlavor,
  type ResolvedApacheOptions,
  type ResolvedCaddyOptions,
  type ResolvedNginxOptions,
  type ServerForm,
} from './shared/options.js'
export { nginxConfig, nginxIncludeFiles, plainAcceptLists, type NginxIncludeFiles } from './nginx/index.js'
export { apacheConfig } from './apache/config.js'
export { caddyConfig, MIN_CADDY_VERSION } from './caddy/config.js'
export {
  varnishConfig,
  resolveVarnishOptions,
  DEFAULT_VARNISH_OPTIONS,
  MIN_VARNISH_VERSION,
  type ResolvedVarnishOptions,
  type VarnishConfigOptions,
} from './varnish/index.js'
export {
  createPreencodeMiddleware,
  type PreencodeMiddleware,
  type PreencodeMiddlewareOptions,
  type NextFunction,
} from './node/middleware.js'
export {
  createPreencodeHandler,
  fetchRequestFacts,
  type PreencodeHandler,
  type PreencodeHandlerOptions,
} from './fetch/handler.js'
export {
  answer,
  chooseRepresentation,
  directoryRedirect,
  hiddenFile,
  specify,
  targetOf,
  REQUEST_FACT_HEADERS,
  type Answer,
  type AnswerBody,
  type ChooseOptions,
  type Representation,
  type RequestFactHeader,
  type RequestFacts,
  type Target,
} from './http/spec.js'
export {
  servedFileOf,
  type ServedFile,
  type StoredRepresentation,
  type StoredVariant,
} from './http/served-file.js'
export {
  expectedCoding,
  hasServingException,
  serverCoding,
  SERVING_EXCEPTIONS,
  type ServingException,
  type ServingExceptionName,
} from './exceptions.js'
export { parseRange, type ByteRange } from './http/range.js'
export { acceptPattern, refusePattern } from './shared/accept-regex.js'
export { siteModel, type SiteModel, type FileModel } from './shared/site-model.js'
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
  resolveCloudflareOptions,
  CLOUDFLARE_HIDDEN_FILES,
  DEFAULT_CLOUDFLARE_OPTIONS,
  type CloudflareWorkerFiles,
  type CloudflareWorkerOptions,
  type ResolvedCloudflareWorkerOptions,
} from './cloudflare/generate.js'
export {
  checkWorkerLimits,
  uploadedAssets,
  WORKER_MAX_ASSET_BYTES,
  WORKER_MAX_ASSET_FILES,
  WORKER_MAX_COMPRESSED_BYTES,
  WORKERS_PLANS,
  type WorkersPlan,
} from './cloudflare/limits.js'
export { edgeChoice, edgeSafeCodings, edgeView, type EdgeView } from './cloudflare/edge.js'
export { createWorker, type PreencodeWorker, type WorkerEnv, type AssetsBinding } from './cloudflare/runtime.js'
export { workerSiteData, WORKER_SITE_VERSION, type WorkerSite, type WorkerFile } from './cloudflare/site-data.js'
export {
  resolveServingPolicy,
  hashedNamePattern,
  classOfUrl,
  type ServingOptions,
  type ServingPolicy,
} from './shared/policy.js'
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
export type { OptionSource } from './shared/option-error.js'
export { serverConfig, serverConfigFiles, type ServerConfigTarget } from './render.js'
export { resolveServerConfigFiles, serverConfigWriter, type ServerConfigFile } from './config-files.js'
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
