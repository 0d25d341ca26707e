export { preencode, preencode as default, INTEGRATION_NAME } from './integration.js'
export {
  resolvePreencodeAstroOptions,
  type PreencodeAstroOptions,
  type ResolvedPreencodeAstroOptions,
  type ServerConfigFile,
} from './options.js'
