export { varnishConfig, MIN_VARNISH_VERSION, type VarnishConfigOptions } from './vcl.js'
export { resolveVarnishOptions, type ResolvedVarnishOptions } from './options.js'
