#!/usr/bin/env bash
# The README's test command: set up everything the tests need (idempotent), then run all tests.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/setup.sh" --test
export PATH="$root/.tools/node/node_modules/.bin:$root/.tools/pnpm/node_modules/.bin:$root/.tools/go/bin:$PATH"
cd "$root"
exec pnpm test
