#!/usr/bin/env bash
# Measures preencode's open file handles on a generated site under macOS's default limit:
#   scripts/measure-open-files.sh [files=100000] [scratch dir]
# Generates <files> HTML pages (about 2.5 KB each, 100 folders x 50 subfolders), then runs
# `preencode compress` (all three formats at fast levels: the handles, not the ratios, are
# measured) and `preencode deploy --to <folder> --concurrency 400`, each under `ulimit -n 256`,
# sampling /proc/<pid>/fd every 50 ms. Prints exit code, wall time, peak open fds and peak RSS.
# Linux only (/proc). Build first (pnpm build).
set -euo pipefail
FILES=${1:-100000}
SCRATCH=${2:-$(mktemp -d -t preencode-open-files-XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/packages/cli/dist/bin.js"
export PATH="$ROOT/.tools/node/node_modules/.bin:$PATH"
mkdir -p "$SCRATCH"
if [ ! -d "$SCRATCH/site" ]; then
  node -e '
    const { mkdirSync, writeFileSync } = require("node:fs")
    const { join } = require("node:path")
    const [dir, n] = [process.argv[1], Number(process.argv[2])]
    for (let i = 0; i < n; i++) {
      const folder = join(dir, `ch${String(i % 100).padStart(2, "0")}`, `s${Math.floor(i / 100) % 50}`)
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, `page-${i}.html`), `<!doctype html><title>page ${i}</title>\n` + `<p>Section ${i}: the quick brown fox jumps over the lazy dog, again and again, page ${i}.</p>\n`.repeat(20 + (i % 17)))
    }' "$SCRATCH/site" "$FILES"
fi

measure() { # label, command...
  local label=$1; shift
  local start end pid max=0 hwm=0 n h rc
  start=$(date +%s.%N)
  bash -c 'ulimit -n 256; exec "$@"' _ "$@" > "$SCRATCH/$label.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    n=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l) || n=0
    [ "$n" -gt "$max" ] && max=$n
    h=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null) || h=
    [ -n "$h" ] && hwm=$h
    sleep 0.05
  done
  rc=0; wait "$pid" || rc=$?
  end=$(date +%s.%N)
  printf '%-8s exit %s  %6.1f s  peak open fds %4d  peak RSS %4d MB\n' "$label" "$rc" "$(echo "$end - $start" | bc)" "$max" $((hwm / 1024))
  tail -n 2 "$SCRATCH/$label.log" | sed 's/^/         /'
}

echo "$FILES files in $SCRATCH/site, ulimit -n 256, Node $(node --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure compress node "$BIN" compress "$SCRATCH/site" --no-cache --quiet --level-brotli 5 --level-zstd 3 --level-gzip 6
measure deploy node "$BIN" deploy "$SCRATCH/site" --to "$SCRATCH/out" --concurrency 400
measure again node "$BIN" deploy "$SCRATCH/site" --to "$SCRATCH/out" --concurrency 400
