// Stands for the integrations that write into the output in `astro:build:done` (sitemap, feeds,
// search indexes): listed before preencode(), its file must be compressed too.
import { writeFile } from 'node:fs/promises'

export default function feed() {
  return {
    name: 'fixture-feed',
    hooks: {
      'astro:build:done': async ({ dir, pages }) => {
        const items = pages.map(
          ({ pathname }) =>
            `  <item><title>/${pathname}</title><link>https://example.com/${pathname}</link><description>A page of the preencode Astro fixture, written by Astro and compressed after every integration ran, because preencode() is listed after the integration that writes this feed in astro:build:done.</description></item>`,
        )
        await writeFile(
          new URL('feed.xml', dir),
          `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>preencode Astro fixture</title>\n${items.join('\n')}\n</channel></rss>\n`,
        )
      },
    },
  }
}
