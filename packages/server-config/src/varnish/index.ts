export { varnishConfig, MIN_VARNISH_VERSION, VARNISH_CODING_HEADER, type VarnishConfigOptions } from './vcl.js'
export { DEFAULT_VARNISH_OPTIONS, parseBackend, resolveVarnishOptions, type ResolvedVarnishOptions } from './options.js'
