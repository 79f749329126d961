# Headless Chromium for the browser tests (sourced by browser.sh and static_browser.sh).
#   need_chromium NAME          sets CHROMIUM, installing chromium and CJK fonts with
#                               apt-get when missing; exits with a FAILED line when it cannot
#   start_chromium NAME PROFILE LOG
#                               starts it headless with a DevTools port; sets BROWSER_PID
#                               and DEVTOOLS_PORT, or exits with a FAILED line
# The first start after the fonts are installed builds the fontconfig cache, which took
# longer than 10 s on a 2-core CI machine: the port is awaited for up to 90 s, and a
# browser that died before opening it is started once more.

find_chromium() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }

need_chromium() {
    local name=$1
    CHROMIUM=$(find_chromium)
    [ -n "$CHROMIUM" ] && return 0
    command -v apt-get >/dev/null 2>&1 ||
        { echo "$name FAILED: no Chromium here and no apt-get to install it; set JIANG_SKIP_BROWSER_TEST=1 to skip" >&2; exit 1; }
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 ||
            { echo "$name FAILED: need root (or sudo) to apt-get install chromium" >&2; exit 1; }
        sudo=sudo
    fi
    echo "$name: apt-get install chromium fonts-wqy-zenhei fonts-dejavu-core"
    local log
    log=$(mktemp)
    export DEBIAN_FRONTEND=noninteractive
    if ! $sudo apt-get install -y -q chromium fonts-wqy-zenhei fonts-dejavu-core >"$log" 2>&1; then
        $sudo apt-get update -q >>"$log" 2>&1 || true
        $sudo apt-get install -y -q chromium fonts-wqy-zenhei fonts-dejavu-core >>"$log" 2>&1 ||
            { tail -20 "$log" >&2; rm -f "$log"; echo "$name FAILED: apt-get install chromium failed" >&2; exit 1; }
    fi
    rm -f "$log"
    # Build the font cache now rather than inside the browser's first start.
    command -v fc-cache >/dev/null 2>&1 && fc-cache >/dev/null 2>&1 || true
    CHROMIUM=$(find_chromium)
    [ -n "$CHROMIUM" ] || { echo "$name FAILED: chromium is still missing after apt-get install" >&2; exit 1; }
}

start_chromium() {
    local name=$1 profile=$2 log=$3 attempt waited
    for attempt in 1 2; do
        rm -rf "$profile"
        "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
            --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
            --user-data-dir="$profile" --remote-debugging-port=0 about:blank \
            >"$log" 2>&1 &
        BROWSER_PID=$!
        for waited in $(seq 900); do
            [ -s "$profile/DevToolsActivePort" ] && break
            kill -0 "$BROWSER_PID" 2>/dev/null || break
            sleep 0.1
        done
        DEVTOOLS_PORT=$(head -1 "$profile/DevToolsActivePort" 2>/dev/null || true)
        if [ -n "$DEVTOOLS_PORT" ]; then
            [ "$waited" -gt 50 ] && echo "$name: chromium opened its DevTools port after $((waited / 10)) s"
            return 0
        fi
        if kill -0 "$BROWSER_PID" 2>/dev/null; then
            echo "$name FAILED: chromium did not open its DevTools port in 90 s; its last lines:" >&2
            tail -5 "$log" >&2
            exit 1
        fi
        echo "$name: chromium exited before opening its DevTools port (attempt $attempt); its last lines:" >&2
        tail -5 "$log" >&2
        wait "$BROWSER_PID" 2>/dev/null || true
    done
    BROWSER_PID=""
    echo "$name FAILED: chromium would not start" >&2
    exit 1
}
