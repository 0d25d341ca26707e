// Page corpora for the dictionary part: real documentation, offline, and a generated one. The npm CLI's package (pinned
// as a bench devDependency) ships its documentation twice: as Markdown (`docs/content`, the
// source of docs.npmjs.com's CLI section) and as the HTML npm renders from it (`docs/output`,
// one self-contained page per topic: inline CSS, no site navigation). The Markdown is also
// rendered here by VitePress (pinned beside it) into a docs site with its default theme: top
// navigation, a sidebar listing every page, an outline, edit links — what a docs generator ships.
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { BENCH_ROOT } from '../lib/paths.ts'
import { runChild } from '../lib/util.ts'

export interface PageCorpus {
  /** Short name for the table. */
  name: string
  /** One line saying exactly what the pages are. */
  description: string
  /** Pages in a stable order (sorted by path). */
  pages: Buffer[]
  /** Each page's path relative to the site root, in the same order. */
  paths: string[]
}

/** The sidebar sections, as docs.npmjs.com names them. */
const SECTIONS: readonly [folder: string, title: string][] = [
  ['commands', 'CLI Commands'],
  ['configuring-npm', 'Configuring npm'],
  ['using-npm', 'Using npm'],
]

/** A bench devDependency's folder and version. */
async function benchDependency(name: string): Promise<{ root: string; version: string }> {
  const root = join(BENCH_ROOT, 'node_modules', name)
  const manifest = await readFile(join(root, 'package.json'), 'utf8').catch(() => {
    throw new Error(`bench devDependency ${name} is not installed (run pnpm install)`)
  })
  return { root, version: (JSON.parse(manifest) as { version: string }).version }
}

async function htmlFiles(root: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.endsWith('.html') && entry.name !== '404.html') found.push(path)
    }
  }
  await walk(root)
  return found.sort((a, b) => (relative(root, a) < relative(root, b) ? -1 : 1))
}

async function readPages(root: string): Promise<{ pages: Buffer[]; paths: string[] }> {
  const files = await htmlFiles(root)
  return { pages: await Promise.all(files.map((f) => readFile(f))), paths: files.map((f) => relative(root, f)) }
}

/** Where Debian's `rust-doc` package puts The Rust Programming Language (`apt-get install rust-doc`). */
const RUST_BOOK = '/usr/share/doc/rust-doc/html/book'

/**
 * The Rust book as Debian ships it (mdBook's HTML: a sidebar of every chapter on every page, the
 * whole book again in print.html, and the redirect pages of older editions): a real site nobody
 * here wrote. Measured only where the package is installed.
 */
export async function rustBookCorpus(): Promise<PageCorpus> {
  const { pages, paths } = await readPages(RUST_BOOK).catch(() => {
    throw new Error(`${RUST_BOOK} is missing (apt-get install rust-doc)`)
  })
  return {
    paths,
    name: 'Rust book (Debian rust-doc)',
    description: `the ${pages.length} HTML pages of ${RUST_BOOK} (mdBook: every chapter in the sidebar of every page, print.html, redirect pages of the older editions)`,
    pages,
  }
}

/** npm's own HTML rendering of its docs (no site navigation). */
export async function npmHtmlCorpus(): Promise<PageCorpus> {
  const npm = await benchDependency('npm')
  const { pages, paths } = await readPages(join(npm.root, 'docs', 'output'))
  return {
    paths,
    name: `npm ${npm.version} docs, npm's HTML`,
    description: `the ${pages.length} HTML pages npm ${npm.version} ships in docs/output (its own renderer: inline CSS, a table of contents per page, no site navigation)`,
    pages,
  }
}

function vitepressConfig(sidebar: unknown, version: string): string {
  const config = {
    title: 'npm Docs',
    description: 'Documentation for the npm registry, website, and command-line interface',
    // The Markdown links to docs.npmjs.com sections this site does not have.
    ignoreDeadLinks: true,
    themeConfig: {
      nav: [
        { text: 'CLI Commands', link: '/commands/npm' },
        { text: 'Configuring npm', link: '/configuring-npm/install' },
        { text: 'Using npm', link: '/using-npm/config' },
        { text: `v${version}`, link: '/commands/npm' },
      ],
      sidebar,
      outline: [2, 3],
      editLink: { pattern: 'https://github.com/npm/cli/edit/latest/docs/lib/content/:path' },
      socialLinks: [{ icon: 'github', link: 'https://github.com/npm/cli' }],
      footer: { message: 'Released under the Artistic License 2.0.', copyright: 'Copyright npm, Inc.' },
    },
  }
  return `export default ${JSON.stringify(config, null, 2)}\n`
}

/** npm's Markdown docs built by VitePress's default theme in a child process (about 30 s). */
export async function vitepressCorpus(scratch: string): Promise<PageCorpus> {
  const npm = await benchDependency('npm')
  const root = join(scratch, 'npm-docs-vitepress')
  await mkdir(join(root, '.vitepress'), { recursive: true })
  const sidebar = []
  for (const [folder, title] of SECTIONS) {
    await cp(join(npm.root, 'docs', 'content', folder), join(root, folder), { recursive: true })
    const items = (await readdir(join(root, folder)))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => ({ text: f.slice(0, -3), link: `/${folder}/${f.slice(0, -3)}` }))
    sidebar.push({ text: title, collapsed: false, items })
  }
  await writeFile(join(root, '.vitepress', 'config.mjs'), vitepressConfig(sidebar, npm.version))
  // The compiled pages import vue from the site's folder.
  await symlink(join(BENCH_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  const child = await runChild(process.execPath, [join(import.meta.dirname, 'vitepress-child.ts'), root], {
    timeoutMs: 10 * 60_000,
  })
  if (child.code !== 0)
    throw new Error(`vitepress build of npm's docs failed (exit ${child.code}): ${child.stderr.slice(-500)}`)
  const dist = join(root, '.vitepress', 'dist')
  const { pages, paths } = await readPages(dist)
  const sections = SECTIONS.map(([folder]) => folder).join(', ')
  return {
    paths,
    name: `npm ${npm.version} docs, VitePress`,
    description: `the ${pages.length} pages VitePress ${(await benchDependency('vitepress')).version} builds with its default theme from the Markdown of npm ${npm.version}'s docs/content (${sections}) (nav bar, sidebar of every page, outline, edit link, footer)`,
    pages,
  }
}

/** A documentation page: one template, text varying with a seed. */
function docPage(n: number): Buffer {
  let seed = n * 7919 + 1
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const words =
    'the of and to in is for that with as on by this are from be or an it at which you can not have more use your will all its one configuration server build plugin compress dictionary browser response request header file page option cache deploy manifest'.split(
      ' ',
    )
  const nav = Array.from(
    { length: 60 },
    (_, i) =>
      `<li><a href="/docs/section-${i}/">Section ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]}</a></li>`,
  ).join('\n')
  const paragraphs = Array.from(
    { length: 4 + Math.floor(random() * 16) },
    () =>
      `<p>${Array.from({ length: 30 + Math.floor(random() * 60) }, () => words[Math.floor(random() * words.length)]).join(' ')}.</p>`,
  )
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Topic ${n} · Docs</title><link rel="stylesheet" href="/assets/style-Ab12Cd34.css"><script type="module" src="/assets/app-Ef56Gh78.js"></script></head><body><header class="site-header"><a class="logo" href="/">Docs</a><nav><ul>${nav}</ul></nav></header><main><h1>Topic ${n}</h1>${paragraphs.join('\n')}<pre><code>preencode({ deltas: { versions: ${n % 5} } })</code></pre></main><footer class="site-footer"><p>Built with preencode.</p></footer></body></html>\n`,
  )
}

/** A generated stand-in for a docs site: one template, paragraphs of seeded random words. */
export function generatedCorpus(count: number): PageCorpus {
  return {
    name: 'generated',
    description: `${count} generated pages from one template (head, 60-link navigation, footer) with 4-20 paragraphs of seeded random words from a 48-word list each: random text no dictionary can predict`,
    pages: Array.from({ length: count }, (_, i) => docPage(i)),
    paths: Array.from({ length: count }, (_, i) => `docs/topic-${i}.html`),
  }
}
