#!/usr/bin/env bash
# The static web bundle in a real browser, with no jiang-web process: builds the bundle
# (web/build-static.sh), checks the WebAssembly module under node (kernels, command
# interface fuzz), serves the bundle with `python3 -m http.server` and drives headless
# Chromium through web/tests/static_browser.py (games, analysis, stop, speed, memory,
# second visit, Chinese page). Screenshots in target/web-static-screenshots/.
# Installs Chromium with apt-get when it is missing; FAILS when it cannot be had (the CI
# block that runs this is skipped with JIANG_SKIP_BROWSER_TEST=1).
#   bash web/tests/static_browser.sh [BENCH_DEPTH]    (default 13, the bench's own)
set -euo pipefail
cd "$(dirname "$0")/../.."
DEPTH="${1:-13}"
TARGET_DIR="${CARGO_TARGET_DIR:-target}"

# shellcheck source=web/tests/chromium.sh
. web/tests/chromium.sh
need_chromium "static browser test"
command -v python3 >/dev/null || { echo "static browser test FAILED: python3 is needed" >&2; exit 1; }

BUNDLE="$TARGET_DIR/web-static"
bash web/build-static.sh "$BUNDLE"
cargo build --release --bin jiang
JIANG="$TARGET_DIR/release/jiang"
if command -v node >/dev/null; then
    node wasm/tests/node_check.js "$BUNDLE" "$JIANG"
else
    echo "static browser test: node is missing; the module's node checks are SKIPPED (the browser checks follow)"
fi

OUT="$TARGET_DIR/web-static-screenshots"
rm -rf "$OUT"
mkdir -p "$OUT"
WORK=$(mktemp -d)
SERVER_PID=""; BROWSER_PID=""
cleanup() {
    [ -n "$BROWSER_PID" ] && kill "$BROWSER_PID" 2>/dev/null && wait "$BROWSER_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK" 2>/dev/null || true
}
trap cleanup EXIT

# Nothing but Python's static file server.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$BUNDLE" >"$WORK/http.out" 2>"$WORK/http.log" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q "port" "$WORK/http.out" 2>/dev/null && break; sleep 0.1; done
HTTP_PORT=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$WORK/http.out" | head -1)
[ -n "$HTTP_PORT" ] || { echo "static browser test: http.server printed no port"; cat "$WORK/http.out" "$WORK/http.log"; exit 1; }
URL="http://127.0.0.1:$HTTP_PORT"

start_chromium "static browser test" "$WORK/profile" "$WORK/browser.log"
PORT=$DEVTOOLS_PORT

status=0
python3 web/tests/static_browser.py "$PORT" "$URL" "$OUT" "$WORK/http.log" "$JIANG" "$DEPTH" || status=$?
echo "static browser test: screenshots in $OUT/"
exit $status
