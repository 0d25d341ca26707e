export { preencode, preencode as default } from './plugin.js'
export {
  resolvePreencodeRollupOptions,
  type PreencodeRollupOptions,
  type ResolvedPreencodeRollupOptions,
} from './options.js'
