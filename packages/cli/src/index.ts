export { main } from './main.js'
export { run } from './run.js'
