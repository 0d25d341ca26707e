export { preencode, preencode as default } from './plugin.js'
export {
  resolvePreencodeViteOptions,
  type PreencodeEnvironmentInfo,
  type PreencodeViteOptions,
  type ResolvedPreencodeViteOptions,
} from './options.js'
