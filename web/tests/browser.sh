#!/usr/bin/env bash
# Real-browser test of jiang-web: headless Chromium loads each game's page, a whole game
# is played by clicking on the board, and screenshots of the start and final positions
# are kept under target/web-screenshots/. Skips (exit 0, with a message) when Chromium
# cannot be had. Run from the repository root: bash web/tests/browser.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
CHROMIUM=$(find_chromium)
if [ -z "$CHROMIUM" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "browser test: installing chromium (apt-get)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei fonts-dejavu-core) >/dev/null 2>&1 || true
    CHROMIUM=$(find_chromium)
fi
if [ -z "$CHROMIUM" ]; then
    echo "browser test SKIPPED: no chromium here and it could not be installed"
    exit 0
fi
if ! command -v python3 >/dev/null; then
    echo "browser test SKIPPED: python3 is needed to drive the browser"
    exit 0
fi

cargo build --release -p jiang-web
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

target/release/jiang-web --port 0 >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 50); do grep -q http "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/server.out" | head -1)
[ -n "$URL" ] || { echo "browser test: the server printed no address"; cat "$WORK/server.err"; exit 1; }

"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$WORK/profile" --remote-debugging-port=0 about:blank \
    >"$WORK/browser.log" 2>&1 &
BROWSER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/profile/DevToolsActivePort" ] && break; sleep 0.1; done
PORT=$(head -1 "$WORK/profile/DevToolsActivePort" 2>/dev/null || true)
[ -n "$PORT" ] || { echo "browser test: chromium did not open its DevTools port"; tail -5 "$WORK/browser.log"; exit 1; }

python3 web/tests/browser.py "$PORT" "$URL" "$OUT"
echo "browser test: screenshots in $OUT/"
