#!/usr/bin/env bash
# The README's main job: set up (idempotent), build the playground with the Vite plugin (which
# prints the compression report), then deploy it to a local folder with `pnpm run deploy`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/setup.sh"
export PATH="$root/.tools/node/node_modules/.bin:$root/.tools/pnpm/node_modules/.bin:$PATH"
cd "$root/playground"
pnpm run build
if grep -q '"deploy"' package.json; then pnpm run deploy; fi
