/**
 * Frameworks that run Vite for their bundles and write the final site afterwards: prerendered
 * pages in Vite's `buildApp` step, in Nitro's public folder, or in a second `vite build`. Each
 * is recognised by the names of the Vite plugins it adds, and carries the hooks that compress
 * its site at the right time (`framework-hooks.ts`); the four with their own integration make the
 * plugin stand down.
 */

import { qwikPublicDir } from './deployable.js'
import {
  buildApp,
  type FrameworkBuild,
  type FrameworkHooks,
  type FrameworkTiming,
  integration,
  nitro,
  serverBuild,
} from './framework-hooks.js'

/** Vite's resolved `builder` options, as far as telling an app build apart needs them. */
export interface BuilderOptions {
  sharedPlugins?: boolean
  sharedConfigBuild?: boolean
}

interface FrameworkEntry {
  /** The framework as users call it. */
  framework: string
  matches: (pluginName: string) => boolean
  /** Its hooks in an app build (Vite's `buildApp`), or in every build without `whenNotApp`. */
  when: FrameworkTiming
  /** Its hooks outside an app build: the framework builds environment by environment (`vite.build()`). */
  whenNotApp?: FrameworkTiming
  /**
   * Whether `builder` options mean Vite builds the app (`buildApp`) rather than the framework
   * calling `vite.build()` per environment with `builder` set anyway.
   * @default every build with `builder` options
   */
  isApp?: (builder: BuilderOptions) => boolean
}

const FRAMEWORKS: readonly FrameworkEntry[] = [
  {
    framework: 'Astro',
    matches: (name) => name.startsWith('astro:'),
    when: integration(
      "@preencode/astro: `integrations: [preencode()]` in astro.config (import preencode from '@preencode/astro')",
    ),
  },
  {
    framework: 'SvelteKit',
    matches: (name) => name.startsWith('vite-plugin-sveltekit'),
    when: integration(
      "@preencode/sveltekit: wrap the adapter, `adapter: preencode(adapter())` (import { preencode } from '@preencode/sveltekit')",
    ),
  },
  {
    framework: 'VitePress',
    matches: (name) => name === 'vitepress' || name.startsWith('vitepress:'),
    when: integration(
      "@preencode/vitepress: `buildEnd: preencode()` in .vitepress/config (import { preencode } from '@preencode/vitepress')",
    ),
  },
  {
    framework: 'Nuxt',
    matches: (name) => name.startsWith('nuxt:'),
    when: integration("@preencode/nuxt: `modules: ['@preencode/nuxt']` in nuxt.config"),
  },
  // Analog and SolidStart before Nitro: they run Nitro too, and are named as users know them.
  // Analog does not point the client environment at Nitro's public folder.
  {
    framework: 'Analog',
    matches: (name) => name.startsWith('@analogjs/vite-plugin-nitro'),
    when: nitro({ folder: 'dist/analog/public' }),
  },
  { framework: 'SolidStart', matches: (name) => name.startsWith('solid-start:'), when: nitro() },
  { framework: 'Nitro', matches: (name) => name.startsWith('nitro:') || name === 'nitro-prerender', when: nitro() },
  { framework: 'TanStack Start', matches: (name) => name.startsWith('tanstack-start-core:'), when: buildApp },
  // `react-router build` builds the app with `buildApp` only with `future.v8_viteEnvironmentApi`
  // (its config then shares plugins); otherwise it runs `vite.build()` for the client, then the
  // server, which prerenders in its writeBundle — with `builder` options set all the same.
  {
    framework: 'React Router',
    matches: (name) => name.startsWith('react-router'),
    when: buildApp,
    whenNotApp: serverBuild({ defaultFolder: 'build/client' }),
    isApp: (builder) => builder.sharedPlugins === true,
  },
  // Remix 2 (classic, Vite 5/6) is React Router 7's predecessor without the environment API:
  // `remix vite:build` builds the client, then the server, whose writeBundle writes the SPA shell
  // or the prerendered pages into the client folder. Its plugins are `remix` and `remix-*`.
  {
    framework: 'Remix',
    matches: (name) => name === 'remix' || name.startsWith('remix-'),
    when: serverBuild({ defaultFolder: 'build/client' }),
  },
  { framework: 'Vike', matches: (name) => name.startsWith('vike:'), when: buildApp },
  // The adapters (`vite-plugin-qwik-city-static-generate`, …) run SSG in the server build, into
  // the folder the Qwik plugin names. They end the process 5 s after their SSG
  // (`setTimeout(() => process.exit(0), 5000).unref()`, for a build that would otherwise hang on
  // native handles), in the same `closeBundle` phase in which the pages are compressed: a site
  // that takes longer would be cut short, with exit code 0. So the exit is held from the server
  // build's `writeBundle` (before the adapter's `closeBundle` can set its timer) until the pages
  // are compressed, and happens after, as the adapter meant it (`hold-exit.ts`).
  {
    framework: 'Qwik City',
    matches: (name) => name.startsWith('vite-plugin-qwik-city-'),
    when: serverBuild({ pages: qwikPublicDir, defaultFolder: 'dist', holdsExit: true }),
  },
]

/** What a build is: its framework's hooks (none for a framework preencode does not know) and whether Vite builds it as an app. */
export interface BuildKind {
  hooks: FrameworkHooks
  /** Vite runs `buildApp` after building the environments: the `buildApp` hook compresses. */
  app: boolean
  /** The framework, if preencode knows it. */
  framework: string | undefined
}

/**
 * The framework whose Vite plugins are among `pluginNames`, if any (first match in the table),
 * with its hooks for `build`; `builder`: Vite's resolved `builder` options, if any.
 */
export function recogniseBuild(
  pluginNames: readonly string[],
  builder: BuilderOptions | undefined,
  build: FrameworkBuild,
): BuildKind {
  const found = FRAMEWORKS.find((entry) => pluginNames.some((name) => entry.matches(name)))
  const app = builder !== undefined && (found?.isApp?.(builder) ?? true)
  if (!found) return { hooks: {}, app, framework: undefined }
  const when = app ? found.when : (found.whenNotApp ?? found.when)
  return { hooks: when(build, found.framework), app, framework: found.framework }
}
