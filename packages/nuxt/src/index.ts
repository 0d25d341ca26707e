export { default, MODULE_NAME } from './module.js'
export {
  type PreencodeNuxtOptions,
  type ResolvedPreencodeNuxtOptions,
  resolvePreencodeNuxtOptions,
  type ServerConfigFile,
} from './options.js'
