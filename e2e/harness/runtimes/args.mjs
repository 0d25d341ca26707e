// The two arguments every server script takes, on Node, Bun and Deno: the site's folder and the
// port to listen on at 127.0.0.1.
const argv = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2)
const [root, port] = argv
if (!root || !/^\d+$/.test(port ?? '')) {
  console.error('usage: <runtime> <script> <site folder> <port>')
  process.exit(2)
}
export const ROOT = root
export const PORT = Number(port)
export const HOST = '127.0.0.1'
