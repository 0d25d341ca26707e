/**
 * Frameworks that run Vite for their bundles and write the final site afterwards, elsewhere or
 * later (prerendered pages, an adapter's output folder): a plugin compressing after Vite's
 * `closeBundle` would miss those pages or compress the wrong folder. Each is recognised by the
 * names of the Vite plugins it adds, and has its own integration that runs at the right time.
 */
export interface FrameworkIntegration {
  /** The framework as users call it. */
  framework: string
  /** What to use instead, as one would write it in that framework's config. */
  instead: string
}

const FRAMEWORKS: readonly (FrameworkIntegration & { matches: (pluginName: string) => boolean })[] = [
  {
    framework: 'Astro',
    matches: (name) => name.startsWith('astro:'),
    instead:
      "@preencode/astro: `integrations: [preencode()]` in astro.config (import preencode from '@preencode/astro')",
  },
  {
    framework: 'SvelteKit',
    matches: (name) => name.startsWith('vite-plugin-sveltekit'),
    instead:
      "@preencode/sveltekit: wrap the adapter, `adapter: preencode(adapter())` (import { preencode } from '@preencode/sveltekit')",
  },
  {
    framework: 'VitePress',
    matches: (name) => name === 'vitepress' || name.startsWith('vitepress:'),
    instead:
      "@preencode/vitepress: `buildEnd: preencode()` in .vitepress/config (import { preencode } from '@preencode/vitepress')",
  },
  {
    framework: 'Nuxt',
    matches: (name) => name.startsWith('nuxt:'),
    instead: "@preencode/nuxt: `modules: ['@preencode/nuxt']` in nuxt.config",
  },
]

/** The framework whose Vite plugins are among `pluginNames`, if any. */
export function detectFramework(pluginNames: readonly string[]): FrameworkIntegration | undefined {
  const found = FRAMEWORKS.find((entry) => pluginNames.some((name) => entry.matches(name)))
  return found && { framework: found.framework, instead: found.instead }
}

/** The build-time warning: what would go wrong, that the plugin stands down, and what to use. */
export function frameworkWarning({ framework, instead }: FrameworkIntegration): string {
  return `[preencode] ${framework} writes its final pages after Vite's build, so @preencode/vite would compress a partial folder (or the wrong one): it does nothing in this build. Use ${instead}.`
}
