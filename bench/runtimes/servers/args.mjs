// `<runtime> <script> <preencode|own|stored> <site folder> <port>` on Node, Bun and Deno: which handler
// serves the folder on 127.0.0.1:<port>.
const argv = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2)
const [mode, root, port] = argv
if (!['preencode', 'own', 'stored'].includes(mode) || !root || !/^\d+$/.test(port ?? '')) {
  console.error('usage: <runtime> <script> preencode|own|stored <site folder> <port>')
  process.exit(2)
}
export const MODE = mode
export const ROOT = root
export const PORT = Number(port)
export const HOST = '127.0.0.1'
