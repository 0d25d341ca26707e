// `node reconcile-child.js <folder>…`: what `completeFoldersSync` runs as a build process exits
// (an `exit` listener can await nothing): each folder brought up to date by `reconcileManifest`,
// with the settings its manifest records. Silent; a failure ends it with its message on stderr.
import { reconcileManifest } from './reconcile.js'

for (const dir of process.argv.slice(2)) await reconcileManifest(dir)
