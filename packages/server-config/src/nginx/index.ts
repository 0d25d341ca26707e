export { nginxConfig } from './config.js'
export { nginxIncludeFiles, type NginxIncludeFiles } from './include.js'
