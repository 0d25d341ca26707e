export { main } from './main.js'
export { run } from './run.js'
export { defineConfig, type DeployConfig, type PreencodeConfig } from './options/config-file.js'
