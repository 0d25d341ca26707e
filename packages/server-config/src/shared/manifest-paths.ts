/**
 * The paths a manifest may name: core's one rule (`pathsOutsideSite`, core
 * manifest/manifest-paths.ts), which every command that reads a manifest applies too. The serving
 * side never opens such a path (the site on disk drops the file's entry with one warning; the
 * Cloudflare Worker's data refuses the manifest); `verifySite` refuses the manifest.
 */
export { pathsOutsideSite } from '@preencode/core/internal'
