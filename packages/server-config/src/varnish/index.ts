export { type ResolvedVarnishOptions, resolveVarnishOptions } from './options.js'
export { MIN_VARNISH_VERSION, type VarnishConfigOptions, varnishConfig } from './vcl.js'
