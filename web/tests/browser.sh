#!/usr/bin/env bash
# Real-browser test of jiang-web: headless Chromium loads each game's page, a whole game
# is played by clicking on the board, and screenshots of the start and final positions
# are kept under target/web-screenshots/. Installs Chromium with apt-get (chromium.sh),
# as root or with sudo, when they are missing, and FAILS when they cannot be had;
# JIANG_SKIP_BROWSER_TEST=1 is the explicit skip. Run from the repository root:
# bash web/tests/browser.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "browser test: FAILED: $*" >&2
    exit 1
}
if [ "${JIANG_SKIP_BROWSER_TEST:-0}" = 1 ]; then
    echo "browser test SKIPPED (JIANG_SKIP_BROWSER_TEST=1)"
    exit 0
fi

# shellcheck source=web/tests/chromium.sh
. web/tests/chromium.sh
need_chromium "browser test"
command -v python3 >/dev/null 2>&1 || fail "python3 (which drives the browser) is missing"

cargo build --release -p jiang-web -p jiang-lab
OUT=target/web-screenshots
mkdir -p "$OUT"
WORK=$(mktemp -d)
SERVER_PID=""; BROWSER_PID=""
cleanup() {
    [ -n "$BROWSER_PID" ] && kill "$BROWSER_PID" 2>/dev/null && wait "$BROWSER_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK" 2>/dev/null || true
}
trap cleanup EXIT

# A small endgame table, so that the page's tablebase line can be checked.
target/release/jiang-lab egtb build KRK --out "$WORK/tables" >/dev/null
target/release/jiang-web --port 0 --egtb "$WORK/tables" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 50); do grep -q http "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/server.out" | head -1)
[ -n "$URL" ] || { echo "browser test: the server printed no address"; cat "$WORK/server.err"; exit 1; }

start_chromium "browser test" "$WORK/profile" "$WORK/browser.log"
PORT=$DEVTOOLS_PORT

python3 web/tests/browser.py "$PORT" "$URL" "$OUT"
echo "browser test: screenshots in $OUT/"
