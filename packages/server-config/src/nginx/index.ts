export { nginxConfig, type NginxConfigOptions } from './config.js'
export { nginxIncludeFiles, type NginxIncludeFiles } from './include.js'
export { plainAcceptLists } from './accept-maps.js'
