// The framework fixtures of playground/frameworks/ the `frameworks` project builds and checks:
// where each one's deployed folder is and which prerendered pages Chromium opens.
import { literal } from './deployed.ts'

export interface Framework {
  name: string
  /** Folder under playground/frameworks/. */
  dir: string
  /** The folder that gets deployed, relative to the fixture. */
  out: string
  /** Prerendered pages to open in Chromium; each runs the fixture's script (`#script-status`). */
  pages: string[]
  /** How many HTML pages the build must at least leave, so an empty build cannot pass. */
  minPages: number
  /** Its integration writes an Apache `.htaccess` into the output (`serverConfigs`); the CLI route does not. */
  htaccess: boolean
  /** Files written by another integration at the end of the build, which must have variants too. */
  lateFiles?: string[]
  /** What a page load must fetch with variants, as br or zstd (default: document, script, stylesheet). */
  fetched?: string[]
  /** The `[preencode]` warnings this build is meant to print (none unless listed). */
  warnings?: RegExp[]
  /**
   * The command the build's one warning line names for the files it could not complete
   * (`preencode compress <out>`): the suite checks the line, runs it, then checks the folder.
   * Without it, the folder must be complete straight from the build.
   */
  completedBy?: string
  /** `false`: the tool hides Vite's info lines (VuePress builds with `logLevel: 'warn'`), so no report is printed. */
  report?: false
}

/** With an integration of their own (or, for Eleventy, the CLI after the build). */
const INTEGRATIONS: Framework[] = [
  {
    name: 'Astro',
    dir: 'astro',
    out: 'dist',
    pages: ['/', '/blog/first/'],
    minPages: 4,
    htaccess: true,
    lateFiles: ['feed.xml'],
  },
  { name: 'SvelteKit', dir: 'sveltekit', out: 'build', pages: ['/', '/blog/first/'], minPages: 5, htaccess: true },
  {
    name: 'VitePress',
    dir: 'vitepress',
    out: '.vitepress/dist',
    pages: ['/guide/deploy.html'],
    minPages: 4,
    htaccess: true,
  },
  { name: 'Nuxt', dir: 'nuxt', out: '.output/public', pages: ['/', '/blog/first/'], minPages: 5, htaccess: true },
  // Not Vite: `eleventy && preencode compress _site` as the package's build script.
  { name: 'Eleventy', dir: 'eleventy', out: '_site', pages: ['/', '/blog/first/'], minPages: 4, htaccess: false },
]

/**
 * Their official starters (pinned in pnpm-lock.yaml) plus a second prerendered page, with
 * `preencode()` from @preencode/vite added last to `plugins`, as the README says.
 */
const VITE_PLUGIN: Framework[] = [
  // Prerendered after every environment is built (Vite's buildApp).
  { name: 'TanStack Start', dir: 'tanstack-start', out: 'dist/client', pages: ['/', '/about'], minPages: 2 },
  // `ssr: false` + `prerender: true`: HTML per route, written after the environments are built.
  { name: 'React Router', dir: 'react-router', out: 'build/client', pages: ['/', '/about'], minPages: 2 },
  // SPA mode (`ssr: false`, no prerender): one index.html shell.
  { name: 'React Router SPA', dir: 'react-router-spa', out: 'build/client', pages: ['/'], minPages: 1 },
  { name: 'Vike', dir: 'vike', out: 'dist/client', pages: ['/', '/about'], minPages: 2 },
  // Nitro 3 prerenders into its own public folder.
  { name: 'SolidStart', dir: 'solid-start', out: '.output/public', pages: ['/', '/about'], minPages: 2 },
  // `/` is Vite's index.html, `/about` a Nitro route (no script), `/api/hello` JSON without extension.
  { name: 'Nitro', dir: 'nitro', out: '.output/public', pages: ['/'], minPages: 2 },
  // `qwik build`: the static adapter's second `vite build` writes the pages.
  // Qwik inlines the stylesheet into each page: nothing to fetch (its file has variants all the same).
  {
    name: 'Qwik City',
    dir: 'qwik-city',
    out: 'dist',
    pages: ['/', '/about/'],
    minPages: 2,
    fetched: ['document', 'script'],
  },
  // `static: true`: Analog's Nitro step prerenders into dist/analog/public.
  { name: 'Analog', dir: 'analog', out: 'dist/analog/public', pages: ['/', '/about'], minPages: 2 },
].map((framework) => ({ ...framework, htaccess: false }))

/**
 * The one line the Vite plugin prints as the process exits when files of `folder` were written
 * after it compressed them (all of `files`, if given) and it compressed them again then.
 */
const compressedAgain = (folder: string, files?: string[]): RegExp =>
  new RegExp(
    `\\[preencode\\] \\d+ file\\(s\\) in ${literal(folder)} were written, changed or removed after preencode compressed it \\(${files ? literal(files.join(', ')) : '.*'}\\): compressed again before the build ended`,
  )

/**
 * Tools whose last step writes after Vite's build (issue 34), each a minimal project written from
 * the tool's own template, with `preencode()` added last to `plugins` as the README says.
 */
const TOOLS: Framework[] = [
  // `vite-ssg build`: client build, SSR build, then each route rendered over the client's index.html.
  // Completed as the process exits (the exit line says so).
  {
    name: 'vite-ssg',
    dir: 'vite-ssg',
    out: 'dist',
    pages: ['/', '/about.html'],
    minPages: 2,
    warnings: [compressedAgain('dist', ['about.html', 'index.html'])],
  },
  {
    name: 'vite-react-ssg',
    dir: 'vite-react-ssg',
    out: 'dist',
    // `/about.html` is not a route React Router matches in the browser (nginx has no clean URLs).
    pages: ['/'],
    minPages: 2,
    warnings: [compressedAgain('dist', ['about.html', 'index.html'])],
  },
  // VuePress 2 runs its two Vite builds at once, then renders the pages; its Vite logs only warnings.
  {
    name: 'VuePress',
    dir: 'vuepress',
    out: 'docs/.vuepress/dist',
    pages: ['/', '/guide/deploy.html'],
    minPages: 4,
    report: false,
    // Named from the Vite root, VuePress's source folder `docs/`.
    warnings: [compressedAgain('.vuepress/dist', ['guide/deploy.html', 'guide/index.html', 'index.html'])],
  },
  // A two-slide deck; `slidev build` writes 404.html (GitHub Pages' deep links) after Vite's build.
  {
    name: 'Slidev',
    dir: 'slidev',
    out: 'dist',
    pages: ['/'],
    minPages: 2,
    warnings: [compressedAgain('dist', ['404.html'])],
  },
  // Remix 2 classic on Vite 6, SPA mode: the server build writes index.html into build/client.
  { name: 'Remix SPA', dir: 'remix-spa', out: 'build/client', pages: ['/'], minPages: 1 },
  // Storybook 10 react-vite, `staticDirs: ['../public']` with 800 icons (scripts/icons.mjs):
  // Storybook and Vite's publicDir both copy them while the plugin compresses.
  {
    name: 'Storybook',
    dir: 'storybook',
    out: 'storybook-static',
    pages: ['/iframe.html?id=example-status--default&viewMode=story'],
    minPages: 2,
    // When Storybook copies an icon while the plugin reads it (a race), the icon is compressed again at exit.
    warnings: [compressedAgain('storybook-static')],
  },
].map((framework) => ({ ...framework, htaccess: false }))

/** `PREENCODE_E2E_FRAMEWORKS=vite-ssg,storybook`: build and check only these fixtures (by `dir`). */
const only = process.env.PREENCODE_E2E_FRAMEWORKS?.split(',').map((dir) => dir.trim())

export const FRAMEWORKS: Framework[] = [...INTEGRATIONS, ...VITE_PLUGIN, ...TOOLS].filter(
  (framework) => !only || only.includes(framework.dir),
)
