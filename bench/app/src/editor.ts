// The heaviest entry: the whole Monaco editor with its language workers (the TypeScript worker
// alone is several MB), its CSS and its codicon font.
import * as monaco from 'monaco-editor'
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker'
import JsonWorker from 'monaco-editor/language/json/json.worker.js?worker'
import CssWorker from 'monaco-editor/language/css/css.worker.js?worker'
import HtmlWorker from 'monaco-editor/language/html/html.worker.js?worker'
import TsWorker from 'monaco-editor/language/typescript/ts.worker.js?worker'
import './style.css'

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === 'json') return new JsonWorker()
    if (label === 'css' || label === 'scss' || label === 'less') return new CssWorker()
    if (label === 'html' || label === 'handlebars' || label === 'razor') return new HtmlWorker()
    if (label === 'typescript' || label === 'javascript') return new TsWorker()
    return new EditorWorker()
  },
}

const sample = `export function greet(name: string): string {\n  return \`hello, \${name}\`\n}\n`
monaco.editor.create(document.getElementById('editor')!, { value: sample, language: 'typescript', automaticLayout: true })

// A dynamic import: the charts code becomes its own chunk, loaded on demand.
document.querySelector('nav')?.addEventListener('dblclick', async () => {
  const { renderChart } = await import('./chart-render.ts')
  renderChart(document.getElementById('editor')!)
})
