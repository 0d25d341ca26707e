export { default, MODULE_NAME } from './module.js'
export {
  resolvePreencodeNuxtOptions,
  type PreencodeNuxtOptions,
  type ResolvedPreencodeNuxtOptions,
  type ServerConfigFile,
} from './options.js'
