#!/usr/bin/env bash
# Packs every package of this checkout into a folder of tarballs, as `pnpm publish` would ship
# them (`workspace:*` replaced by the version), so a project can use preencode before it is on
# the registry. Prints the lines that project needs. Usage: scripts/pack.sh [dest] (default .packed)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$(mkdir -p "${1:-$root/.packed}" && cd "${1:-$root/.packed}" && pwd)
export PATH="$root/.tools/node/node_modules/.bin:$root/.tools/pnpm/node_modules/.bin:$PATH"
for dir in "$root"/packages/*/; do
  [ -f "$dir/dist/index.js" ] || { echo "pack: $dir is not built; run scripts/setup.sh first" >&2; exit 1; }
  (cd "$dir" && pnpm pack --pack-destination "$dest" >/dev/null)
done
echo "# tarballs in $dest; in your project's pnpm-workspace.yaml (dependencies between them):"
echo "overrides:"
for tgz in "$dest"/preencode-*.tgz; do
  name=$(tar -xOzf "$tgz" package/package.json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).name)')
  case $name in @preencode/*) echo "  '$name': file:$tgz" ;; esac
done
echo "# then: pnpm add -D file:$dest/preencode-<version>.tgz (the CLI) or the @preencode/vite tarball"
