// The real sites whose deploy history the part replays: build outputs that npm packages ship,
// one package release per deploy. Each site says which folder of the package is the site, which
// files a server would publish, and what a returning visitor fetches.
import { basename } from 'node:path'

export interface HistorySite {
  /** Short name for tables, charts and file names. */
  slug: string
  /** What the site is, for the page. */
  description: string
  /** The npm package and the newest release replayed (pinned: the same history on every run). */
  packageName: string
  last: string
  /** The folder of the unpacked package that is the site. */
  folder: string
  /** Whether a file (POSIX path under `folder`) is part of the published site. */
  publish(path: string): boolean
  /** `app`: the visitor loads the entry pages and what they load; `docs`: a sample of pages plus every changed page. */
  kind: 'app' | 'docs'
  /** app: the entry pages; docs: unused. */
  entries?: readonly string[]
  /** Preencode's shared page dictionary (`--pages`). */
  pages: boolean
  /** Preencode's asset dictionary (`--asset-dictionary`). */
  assets: boolean
  /** Consecutive releases replayed, when the package has fewer than the part's count (at least 10). */
  releases?: number
}

export const SITES: readonly HistorySite[] = [
  {
    slug: 'vitest-ui',
    description:
      "Vitest's UI (`@vitest/ui`'s `dist/client`: a Vite-built app, one entry page, content-hashed script and style)",
    packageName: '@vitest/ui',
    last: '5.1.2',
    folder: 'dist/client',
    publish: () => true,
    kind: 'app',
    entries: ['index.html'],
    pages: false,
    assets: true,
  },
  {
    slug: 'vite-plugin-inspect',
    description:
      "vite-plugin-inspect's UI (`dist/client`: a Vite-built Vue app, one entry page, content-hashed scripts and styles, lazy routes)",
    packageName: 'vite-plugin-inspect',
    last: '12.1.0',
    // Its 17 stable releases since 10.0.6 (the releases before are another app, 0.x).
    releases: 17,
    folder: 'dist/client',
    publish: () => true,
    kind: 'app',
    entries: ['index.html'],
    pages: false,
    assets: true,
  },
  {
    slug: 'unocss-inspector',
    description:
      "UnoCSS's inspector (`@unocss/inspector`'s `dist/client`: a Vite-built Vue app, one entry page, content-hashed scripts and styles, a REPL and editor themes as lazy chunks)",
    packageName: '@unocss/inspector',
    last: '66.12.0',
    folder: 'dist/client',
    publish: () => true,
    kind: 'app',
    entries: ['index.html'],
    pages: false,
    assets: true,
  },
  {
    slug: 'vue-devtools',
    description:
      "Vue DevTools' client (`vite-plugin-vue-devtools`'s `client`: a Vite-built Vue app, one entry page, a 3 MB entry chunk, content-hashed scripts and styles, lazy routes and syntax grammars)",
    packageName: 'vite-plugin-vue-devtools',
    last: '8.2.1',
    folder: 'client',
    publish: () => true,
    kind: 'app',
    entries: ['index.html'],
    pages: false,
    assets: true,
  },
  {
    slug: 'vitest-browser',
    description:
      "Vitest's browser runner (`@vitest/browser`'s `dist/client`: Vite-built, two entry pages, the orchestrator and the tester, content-hashed chunks under `__vitest_browser__/`)",
    packageName: '@vitest/browser',
    last: '5.1.2',
    folder: 'dist/client',
    publish: () => true,
    kind: 'app',
    entries: ['orchestrator.html', 'tester/tester.html'],
    pages: false,
    assets: true,
  },
  {
    slug: 'swagger-ui',
    description:
      'Swagger UI (`swagger-ui-dist`: the page and the bundles it loads, fixed file names; the source maps, module builds for bundlers and Node entry points are not published)',
    packageName: 'swagger-ui-dist',
    last: '5.35.0',
    folder: '.',
    publish: (path) =>
      !path.includes('/') &&
      !/\.(map|md|txt)$/.test(path) &&
      !['package.json', 'index.js', 'absolute-path.js', 'LICENSE', 'NOTICE'].includes(path) &&
      !/^swagger-ui(-es-bundle.*)?\.js$/.test(basename(path)),
    kind: 'app',
    entries: ['index.html'],
    pages: false,
    assets: false,
  },
  {
    slug: 'npm-docs',
    description:
      "npm's CLI documentation (the HTML pages the `npm` package ships in `docs/output`, one per topic), with preencode's page dictionary (`--pages`)",
    packageName: 'npm',
    last: '12.2.2',
    folder: 'docs/output',
    publish: () => true,
    kind: 'docs',
    pages: true,
    assets: false,
  },
]
