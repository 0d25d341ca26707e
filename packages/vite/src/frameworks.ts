import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { preencodeMessage } from '@preencode/core/internal'

/**
 * Frameworks that run Vite for their bundles and write the final site afterwards: prerendered
 * pages in Vite's `buildApp` step, in Nitro's public folder, or in a second `vite build`. Each
 * is recognised by the names of the Vite plugins it adds. The plugin compresses those sites at
 * the right time itself (`when`); the four with their own integration make it stand down.
 */

/** When the folder that gets deployed is final, and so when the plugin compresses it. */
type FrameworkTiming =
  /** After every environment and every framework step: a `buildApp` hook of `order: 'post'`. */
  | 'build-app'
  /** As `build-app`, but the deployed folder is Nitro's public output, read from Nitro's build info. */
  | 'nitro'
  /**
   * At the end of a separate server build that writes the pages into the client's folder
   * (Qwik City's SSG adapters; React Router without the environment API): the client build
   * leaves it to that one.
   */
  | 'server-build'
  /** Never: the framework has its own integration (`instead`), and the plugin stands down. */
  | 'integration'

export interface Framework {
  /** The framework as users call it. */
  framework: string
  when: FrameworkTiming
  /** For `integration`: what to use instead, as one would write it in that framework's config. */
  instead?: string
}

/** Vite's resolved `builder` options, as far as telling an app build apart needs them. */
export interface BuilderOptions {
  sharedPlugins?: boolean
  sharedConfigBuild?: boolean
}

/** A framework with its own integration, and that integration: what the stand-down warning names. */
export interface FrameworkIntegration {
  framework: string
  instead: string
}

interface FrameworkEntry extends Framework {
  matches: (pluginName: string) => boolean
  /** When outside an app build: the framework builds environment by environment (`vite.build()`). */
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
    when: 'integration',
    matches: (name) => name.startsWith('astro:'),
    instead:
      "@preencode/astro: `integrations: [preencode()]` in astro.config (import preencode from '@preencode/astro')",
  },
  {
    framework: 'SvelteKit',
    when: 'integration',
    matches: (name) => name.startsWith('vite-plugin-sveltekit'),
    instead:
      "@preencode/sveltekit: wrap the adapter, `adapter: preencode(adapter())` (import { preencode } from '@preencode/sveltekit')",
  },
  {
    framework: 'VitePress',
    when: 'integration',
    matches: (name) => name === 'vitepress' || name.startsWith('vitepress:'),
    instead:
      "@preencode/vitepress: `buildEnd: preencode()` in .vitepress/config (import { preencode } from '@preencode/vitepress')",
  },
  {
    framework: 'Nuxt',
    when: 'integration',
    matches: (name) => name.startsWith('nuxt:'),
    instead: "@preencode/nuxt: `modules: ['@preencode/nuxt']` in nuxt.config",
  },
  // Analog and SolidStart before Nitro: they run Nitro too, and are named as users know them.
  { framework: 'Analog', when: 'nitro', matches: (name) => name.startsWith('@analogjs/vite-plugin-nitro') },
  { framework: 'SolidStart', when: 'nitro', matches: (name) => name.startsWith('solid-start:') },
  { framework: 'Nitro', when: 'nitro', matches: (name) => name.startsWith('nitro:') || name === 'nitro-prerender' },
  { framework: 'TanStack Start', when: 'build-app', matches: (name) => name.startsWith('tanstack-start-core:') },
  // `react-router build` builds the app with `buildApp` only with `future.v8_viteEnvironmentApi`
  // (its config then shares plugins); otherwise it runs `vite.build()` for the client, then the
  // server, which prerenders in its writeBundle — with `builder` options set all the same.
  {
    framework: 'React Router',
    when: 'build-app',
    whenNotApp: 'server-build',
    isApp: (builder) => builder.sharedPlugins === true,
    matches: (name) => name.startsWith('react-router'),
  },
  // Remix 2 (classic, Vite 5/6) is React Router 7's predecessor without the environment API:
  // `remix vite:build` builds the client, then the server, whose writeBundle writes the SPA shell
  // or the prerendered pages into the client folder. Its plugins are `remix` and `remix-*`.
  { framework: 'Remix', when: 'server-build', matches: (name) => name === 'remix' || name.startsWith('remix-') },
  { framework: 'Vike', when: 'build-app', matches: (name) => name.startsWith('vike:') },
  // The adapters (`vite-plugin-qwik-city-static-generate`, …) run SSG in the server build.
  {
    framework: 'Qwik City',
    when: 'server-build',
    matches: (name) => name.startsWith('vite-plugin-qwik-city-'),
  },
]

/** What a build is: its framework (if preencode knows it) and whether Vite builds it as an app. */
export interface BuildKind {
  framework: Framework | undefined
  /** Vite runs `buildApp` after building the environments: the `buildApp` hook compresses. */
  app: boolean
}

/**
 * The framework whose Vite plugins are among `pluginNames`, if any (first match in the table),
 * with its timing in this build; `builder`: Vite's resolved `builder` options, if any.
 */
export function recogniseBuild(pluginNames: readonly string[], builder: BuilderOptions | undefined): BuildKind {
  const found = FRAMEWORKS.find((entry) => pluginNames.some((name) => entry.matches(name)))
  const app = builder !== undefined && (found?.isApp?.(builder) ?? true)
  if (!found) return { framework: undefined, app }
  const when = app ? found.when : (found.whenNotApp ?? found.when)
  return { framework: { framework: found.framework, when, ...(found.instead ? { instead: found.instead } : {}) }, app }
}

/** Where frameworks with the `server-build` timing put the pages by default, for the stand-down line. */
export const DEFAULT_PAGES: Readonly<Record<string, string>> = {
  'React Router': 'build/client',
  Remix: 'build/client',
  'Qwik City': 'dist',
}

/** The build-time warning: what would go wrong, that the plugin stands down, and what to use. */
export function frameworkWarning({ framework, instead }: FrameworkIntegration): string {
  return preencodeMessage(
    `${framework} writes its final pages after Vite's build, so @preencode/vite would compress a partial folder (or the wrong one): it does nothing in this build. Use ${instead}.`,
  )
}

/**
 * A framework preencode knows but cannot handle in this build (no `buildApp` hook before Vite 7,
 * no public folder found): it stands down, and names the one line that does the job.
 */
export function cannotHandleWarning(framework: string, why: string, folder: string, root: string): string {
  return preencodeMessage(
    `${framework}: ${why}, so @preencode/vite does nothing in this build rather than compress part of the site. ${compressAfterBuild(root, folder)}`,
  )
}

/** The line that compresses `folder` after the project's build: its `build` script, extended. */
export function compressAfterBuild(root: string, folder: string): string {
  const command = `preencode compress ${folder}`
  let build: unknown
  try {
    build = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: { build?: unknown } }).scripts
      ?.build
  } catch {
    build = undefined
  }
  if (typeof build !== 'string') return `Run \`${command}\` after the build.`
  return `In package.json: \`"build": ${JSON.stringify(`${build} && ${command}`)}\`.`
}
