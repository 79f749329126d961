#!/usr/bin/env bash
# Real-browser test of jiang-web: headless Chromium loads each game's page, a whole game
# is played by clicking on the board, and screenshots of the start and final positions
# are kept under target/web-screenshots/. Installs Chromium (and python3) with apt-get,
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

apt_install() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 || fail "need root (or sudo) to apt-get install $*"
        sudo="sudo"
    fi
    command -v apt-get >/dev/null 2>&1 || fail "no apt-get to install $*: install it by hand"
    export DEBIAN_FRONTEND=noninteractive
    echo "browser test: apt-get install $*"
    local log
    log=$(mktemp)
    if ! $sudo apt-get install -y -q "$@" >"$log" 2>&1; then
        $sudo apt-get update -q >>"$log" 2>&1 || true
        $sudo apt-get install -y -q "$@" >>"$log" 2>&1 ||
            { tail -20 "$log" >&2; rm -f "$log"; fail "apt-get install $* failed"; }
    fi
    rm -f "$log"
}

find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
CHROMIUM=$(find_chromium)
if [ -z "$CHROMIUM" ]; then
    apt_install chromium fonts-wqy-zenhei fonts-dejavu-core
    CHROMIUM=$(find_chromium)
    [ -n "$CHROMIUM" ] || fail "chromium is still missing after apt-get install chromium"
fi
if ! command -v python3 >/dev/null 2>&1; then
    apt_install python3
    command -v python3 >/dev/null 2>&1 || fail "python3 (which drives the browser) is still missing"
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
