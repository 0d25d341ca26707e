export { main } from './main.js'
export { type DeployConfig, defineConfig, type PreencodeConfig } from './options/config-file.js'
export { run } from './run.js'
