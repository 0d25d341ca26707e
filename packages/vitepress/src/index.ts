export { preencode, preencode as default } from './build-end.js'
export {
  type PreencodeVitePressOptions,
  type ResolvedPreencodeVitePressOptions,
  resolvePreencodeVitePressOptions,
  type ServerConfigFile,
} from './options.js'
