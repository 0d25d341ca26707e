#!/usr/bin/env bash
# Brings everything preencode needs onto a fresh machine, from the package registries only.
# Idempotent: every step checks first, so a second run takes seconds.
#   scripts/setup.sh            Node 24 + pnpm + workspace install + build
#   scripts/setup.sh --test     also the system packages and servers the tests need
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools="$root/.tools"
NODE_VERSION=24.21.0
PNPM_VERSION=12.21.0
CADDY_VERSION=v2.11.9
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
APT_PACKAGES=(chromium nginx libnginx-mod-http-brotli-static apache2 brotli zstd gzip rsync wrk)

want_test=0
for arg in "$@"; do [ "$arg" = "--test" ] && want_test=1; done
say() { printf '[setup] %s\n' "$*" >&2; }

# --- Node >= 22.15 and pnpm, into the git-ignored .tools folder (never over the system's node)
node_ok() { "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=15)?0:1)' 2>/dev/null; }
if ! node_ok "$tools/node/node_modules/.bin/node"; then
  say "installing node@$NODE_VERSION into .tools/node"
  mkdir -p "$tools/node"
  # Its own package.json, or npm walks up to the workspace's and trips over `workspace:` ranges.
  echo '{"private":true}' > "$tools/node/package.json"
  (cd "$tools/node" && npm install --no-save --no-package-lock --loglevel=error "node@$NODE_VERSION" >/dev/null)
fi
export PATH="$tools/node/node_modules/.bin:$tools/pnpm/node_modules/.bin:$tools/go/bin:$PATH"
if ! [ -x "$tools/pnpm/node_modules/.bin/pnpm" ] || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  say "installing pnpm@$PNPM_VERSION into .tools/pnpm"
  mkdir -p "$tools/pnpm"
  echo '{"private":true}' > "$tools/pnpm/package.json"
  (cd "$tools/pnpm" && npm install --no-save --no-package-lock --loglevel=error "pnpm@$PNPM_VERSION" >/dev/null)
fi

if [ "$want_test" = 1 ]; then
  # --- system packages the tests and benchmarks drive (real servers, reference decoders, Chromium)
  missing=()
  for p in "${APT_PACKAGES[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # The packaged services must not hold ports 80/443: the tests start their own processes.
    for svc in nginx apache2; do $SUDO service "$svc" stop >/dev/null 2>&1 || true; done
  fi
  # --- Caddy and MinIO from the Go module proxy, pinned (Debian's Caddy is too old; MinIO is source-only)
  export GOBIN="$tools/go/bin" GOFLAGS=-mod=mod GOTOOLCHAIN=local
  if ! [ -x "$GOBIN/caddy" ] || ! "$GOBIN/caddy" version 2>/dev/null | grep -q "${CADDY_VERSION}"; then
    say "go install caddy@$CADDY_VERSION"
    go install "github.com/caddyserver/caddy/v2/cmd/caddy@$CADDY_VERSION" 2>"$tools/go-caddy.log" || { cat "$tools/go-caddy.log" >&2; exit 1; }
  fi
  if ! [ -x "$GOBIN/minio" ] || ! [ -f "$tools/go/minio.version" ] || [ "$(cat "$tools/go/minio.version")" != "$MINIO_VERSION" ]; then
    say "go install minio@$MINIO_VERSION (3-4 minutes the first time)"
    go install "github.com/minio/minio@$MINIO_VERSION" 2>"$tools/go-minio.log" || { cat "$tools/go-minio.log" >&2; exit 1; }
    echo "$MINIO_VERSION" > "$tools/go/minio.version"
  fi
fi

cd "$root"
if [ -f package.json ]; then
  # The committed lockfile is the truth: a drifted one is an error, not a silent re-resolve.
  pnpm install --frozen-lockfile --reporter=append-only >"$tools/pnpm-install.log" 2>&1 || { cat "$tools/pnpm-install.log" >&2; exit 1; }
  pnpm -r --filter './packages/*' run build >"$tools/build.log" 2>&1 || { cat "$tools/build.log" >&2; exit 1; }
fi
say "ready: node $(node --version), pnpm $(pnpm --version)"
