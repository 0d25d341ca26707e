export {
  type PreencodeRollupOptions,
  type ResolvedPreencodeRollupOptions,
  resolvePreencodeRollupOptions,
  type ServerConfigFile,
} from './options.js'
export { preencode, preencode as default } from './plugin.js'
