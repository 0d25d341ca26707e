export { INTEGRATION_NAME, preencode, preencode as default } from './integration.js'
export {
  type PreencodeAstroOptions,
  type ResolvedPreencodeAstroOptions,
  resolvePreencodeAstroOptions,
  type ServerConfigFile,
} from './options.js'
