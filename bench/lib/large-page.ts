// The ~400 KB HTML page of the serving benchmark: real prose and real code (monaco-editor's
// CHANGELOG and its API declarations, from node_modules), so that it compresses like a real
// documentation page, not like generated filler. Deterministic for a given monaco-editor version.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

const PAGE_TARGET_BYTES = 410 * 1024

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export async function buildLargePage(): Promise<string> {
  // Its `exports` map hides package.json and the .md files, so go by the bench's node_modules.
  const monacoRoot = join(import.meta.dirname, '..', 'node_modules', 'monaco-editor')
  const changelog = await readFile(join(monacoRoot, 'CHANGELOG.md'), 'utf8')
  const api = await readFile(join(monacoRoot, 'esm', 'vs', 'editor', 'editor.api.d.ts'), 'utf8')

  const parts: string[] = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Monaco Editor — changelog and API reference</title>',
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}pre{overflow:auto;background:#f6f8fa;padding:1rem}h2{border-bottom:1px solid #ddd}</style>',
    '</head>',
    '<body>',
    '<header><nav><a href="#changelog">Changelog</a> · <a href="#api">API</a></nav></header>',
    '<main>',
    '<section id="changelog">',
  ]
  let inList = false
  for (const line of changelog.split('\n')) {
    const heading = /^(#{1,4})\s+(.*)$/.exec(line)
    const item = /^\s*[-*]\s+(.*)$/.exec(line)
    if (!item && inList) {
      parts.push('</ul>')
      inList = false
    }
    if (heading) parts.push(`<h${heading[1]!.length + 1}>${escapeHtml(heading[2]!)}</h${heading[1]!.length + 1}>`)
    else if (item) {
      if (!inList) {
        parts.push('<ul>')
        inList = true
      }
      parts.push(`<li>${escapeHtml(item[1]!)}</li>`)
    } else if (line.trim()) parts.push(`<p>${escapeHtml(line)}</p>`)
  }
  if (inList) parts.push('</ul>')
  parts.push('</section>', '<section id="api">', '<h2>API reference</h2>', '<pre><code class="language-ts">')
  const tail =
    '</code></pre>\n</section>\n</main>\n<footer><p>Excerpted from monaco-editor (MIT).</p></footer>\n</body>\n</html>\n'
  let size = Buffer.byteLength(parts.join('\n')) + tail.length
  for (const line of api.split('\n')) {
    const html = escapeHtml(line)
    size += Buffer.byteLength(html) + 1
    if (size > PAGE_TARGET_BYTES) break
    parts.push(html)
  }
  return parts.join('\n') + tail
}
