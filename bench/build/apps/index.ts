// The apps the build part measures besides bench/app, generated into the run's scratch folder
// from packages in bench/node_modules (real library code, not random bytes): one whose largest
// chunk dominates the site, where the time of that one file decides everything on 2 cores
// (issue 37), and a Storybook-like one (many small static files beside a few chunks).
import { cp, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { BENCH_ROOT } from '../../lib/paths.ts'

/** One Vite app to build plainly, with preencode() and with the peer. */
export interface BenchApp {
  /** Its name in tables and targets. */
  name: string
  /** What it is made of, one line. */
  about: string
  root: string
  entries: Record<string, string>
}

const NODE_MODULES = join(BENCH_ROOT, 'node_modules')

/** Writes the two generated apps under `work` and returns them. */
export async function generatedApps(work: string): Promise<BenchApp[]> {
  return [await bigChunkApp(join(work, 'big-chunk')), await storybookLikeApp(join(work, 'storybook-like'))]
}

async function appFolder(root: string, files: Record<string, string>): Promise<void> {
  await mkdir(join(root, 'src'), { recursive: true })
  await symlink(NODE_MODULES, join(root, 'node_modules'), 'dir')
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text)
}

const page = (title: string, body: string, script: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>${body}<script type="module" src="${script}"></script></body></html>\n`

/**
 * One entry that pulls Monaco's editor API, the full ECharts, three.js with a dozen add-on
 * folders and Vue with its compiler into one chunk (about 5.8 MB of 6.3 MB), the Monaco
 * language definitions as ~80 lazy chunks beside it, and its CSS.
 */
async function bigChunkApp(root: string): Promise<BenchApp> {
  const main = [
    "import * as monaco from 'monaco-editor/editor/editor.api.js'",
    "import * as echarts from 'echarts'",
    "import * as THREE from 'three'",
    "import * as Vue from 'vue/dist/vue.esm-bundler.js'",
    "const addons = import.meta.glob('../node_modules/three/examples/jsm/{exporters,controls,postprocessing,shaders,objects,geometries,math,modifiers,misc}/*.js', { eager: true })",
    "const languages = import.meta.glob('../node_modules/monaco-editor/esm/vs/languages/definitions/*/*.js')",
    'Object.assign(globalThis, { monaco, echarts, THREE, Vue, addons, languages })',
    "monaco.editor.create(document.getElementById('editor')!, { value: 'let a = 1\\n', language: 'typescript' })",
    "echarts.init(document.getElementById('chart')!).setOption({ xAxis: { type: 'category', data: ['a', 'b'] }, yAxis: {}, series: [{ type: 'bar', data: [1, 2] }] })",
    '',
  ].join('\n')
  await appFolder(root, {
    'index.html': page('one big chunk', '<div id="editor"></div><div id="chart"></div>', '/src/main.ts'),
    'src/main.ts': main,
  })
  return {
    name: 'big chunk',
    about:
      'one entry bundling monaco-editor’s editor API, echarts, three.js with add-ons and Vue into one chunk of ~5.8 MB; ~80 small lazy chunks',
    root,
    entries: { index: join(root, 'index.html') },
  }
}

/**
 * Storybook's shape: a manager page and a preview iframe, a static folder of prebuilt files
 * copied as they are (here Monaco's prebuilt `min/` build without its workers and translations:
 * ~110 files, two of 1-2.5 MB), the preview's library chunks and one lazy chunk per story
 * (three.js add-ons, ~150).
 */
async function storybookLikeApp(root: string): Promise<BenchApp> {
  const manager = [
    "import { createApp, h } from 'vue/dist/vue.esm-bundler.js'",
    "createApp({ render: () => h('nav', 'stories') }).mount('#root')",
    '',
  ].join('\n')
  const preview = [
    "import * as echarts from 'echarts'",
    "const stories = import.meta.glob('../node_modules/three/examples/jsm/{controls,exporters,geometries,objects,postprocessing,shaders,math,modifiers,effects,animation,curves,interactive,lines}/*.js')",
    'const name = new URLSearchParams(location.search).get("id")',
    'Object.assign(globalThis, { echarts, story: name ? stories[name]?.() : undefined })',
    '',
  ].join('\n')
  await appFolder(root, {
    'index.html': page('storybook-like manager', '<div id="root"></div>', '/src/manager.ts'),
    'iframe.html': page('storybook-like preview', '<div id="storybook-root"></div>', '/src/preview.ts'),
    'src/manager.ts': manager,
    'src/preview.ts': preview,
  })
  const min = join(NODE_MODULES, 'monaco-editor', 'min')
  const staticDir = join(root, 'public', 'sb-manager')
  for (const path of await filesUnder(min)) {
    if (path.includes('worker') || path.includes('nls/')) continue
    await mkdir(join(staticDir, path, '..'), { recursive: true })
    await cp(join(min, path), join(staticDir, path))
  }
  return {
    name: 'storybook-like',
    about:
      'a manager page and a preview iframe (echarts, ~150 lazy story chunks of three.js add-ons) and a static folder of ~110 prebuilt files (monaco-editor/min without workers and translations)',
    root,
    entries: { index: join(root, 'index.html'), iframe: join(root, 'iframe.html') },
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name)
      if (entry.isDirectory()) await walk(full)
      else if ((await stat(full)).isFile()) out.push(relative(dir, full))
    }
  }
  await walk(dir)
  return out.sort()
}
