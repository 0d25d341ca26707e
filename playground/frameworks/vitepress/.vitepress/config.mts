import { preencode } from '@preencode/vitepress'
import { defineConfig } from 'vitepress'

export default defineConfig({
  title: 'preencode VitePress fixture',
  description: 'Every rendered page compressed after VitePress wrote it',
  cleanUrls: false,
  sitemap: { hostname: 'https://example.com' },
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide/' }],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Intro', link: '/guide/' },
          { text: 'Deploy', link: '/guide/deploy' },
        ],
      },
    ],
  },
  // After every page is rendered and the sitemap written: the final output.
  buildEnd: preencode({ serverConfigs: [{ server: 'apache', path: '.vitepress/dist/.htaccess' }] }),
})
