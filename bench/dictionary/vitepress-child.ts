// Builds one VitePress site (argv[2]) in its own process, so its console output stays off the
// bench's stdout and its memory is returned when it exits.
import { build } from 'vitepress'

const root = process.argv[2]
if (!root) throw new Error('usage: vitepress-child.ts <site root>')
await build(root)
