#!/usr/bin/env bash
# Runs jiang.exe under Wine in the test prefix of wine-prefix.sh (made if missing):
#
#   tests/windows/wine-jiang.sh [PATH/TO/jiang.exe] [ARGS...]
#
# The default exe is the cross build, target/x86_64-pc-windows-gnu/release/jiang.exe.
# stdin/stdout pass straight through, so a GUI harness or match runner can drive it like
# the native binary. Wine's own messages are silenced (WINEDEBUG=-all).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
exe="$repo/target/x86_64-pc-windows-gnu/release/jiang.exe"
case "${1:-}" in *.exe) exe="$1"; shift ;; esac
prefix="$("$here/wine-prefix.sh")"
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
exec wine "$exe" "$@"
