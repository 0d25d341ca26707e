export { preencode, preencode as default } from './adapter.js'
export {
  type PreencodeSvelteKitOptions,
  type ResolvedPreencodeSvelteKitOptions,
  resolvePreencodeSvelteKitOptions,
  type ServerConfigFile,
} from './options.js'
