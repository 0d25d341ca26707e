// Eleventy is not Vite: the site is compressed by the CLI after `eleventy` (see package.json).
export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy({ 'src/assets': 'assets', '../shared/site.css': 'assets/site.css' })
  return { dir: { input: 'src', output: '_site' } }
}
