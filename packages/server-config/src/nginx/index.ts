export { nginxConfig } from './config.js'
export { type NginxIncludeFiles, nginxIncludeFiles } from './include.js'
