export { preencode, preencode as default } from './plugin.js'
export {
  resolvePreencodeViteOptions,
  type PreencodeEnvironmentInfo,
  type PreencodeViteOptions,
  type ResolvedPreencodeViteOptions,
  type ServerConfigFile,
} from './options.js'
