export { preencode, preencode as default } from './build-end.js'
export {
  resolvePreencodeVitePressOptions,
  type PreencodeVitePressOptions,
  type ResolvedPreencodeVitePressOptions,
  type ServerConfigFile,
} from './options.js'
