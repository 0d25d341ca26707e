export { type DeployConfig, defineConfig, type PreencodeConfig } from './config-file.js'
export { main } from './main.js'
export { run } from './run.js'
