// Every page is prerendered: adapter-static writes them all to build/.
export const prerender = true
export const trailingSlash = 'always'
