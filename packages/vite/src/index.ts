export {
  type PreencodeEnvironmentInfo,
  type PreencodeViteOptions,
  type ResolvedPreencodeViteOptions,
  resolvePreencodeViteOptions,
  type ServerConfigFile,
} from './options.js'
export { preencode, preencode as default } from './plugin.js'
