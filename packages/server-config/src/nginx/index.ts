export { nginxConfig, type NginxConfigOptions } from './config.js'
export { plainAcceptLists } from './accept-maps.js'
