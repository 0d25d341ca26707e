export { preencode, preencode as default } from './plugin.js'
export {
  resolvePreencodeRollupOptions,
  type PreencodeRollupOptions,
  type ResolvedPreencodeRollupOptions,
  type ServerConfigFile,
} from './options.js'
