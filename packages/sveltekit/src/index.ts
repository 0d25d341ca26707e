export { preencode, preencode as default } from './adapter.js'
export {
  resolvePreencodeSvelteKitOptions,
  type PreencodeSvelteKitOptions,
  type ResolvedPreencodeSvelteKitOptions,
  type ServerConfigFile,
} from './options.js'
