#!/usr/bin/env bash
# jiang.exe reads a line in the ANSI code page when it is not UTF-8, as Chinese Windows
# GUIs write it (GBK, code page 936): under Wine with a Chinese locale (zh_CN.UTF-8: ANSI
# code page 936, file names in UTF-8), a book in a folder named 象棋 is opened from a
# `setoption name BookFile value Z:\…\象棋\book.jbk` line sent in GBK.
#
#   tests/windows/ansi-input.sh [PATH/TO/jiang.exe]
#
# Needs the glibc locale zh_CN.UTF-8 (tests/windows/ci.sh makes it) and iconv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
exe="${1:-$repo/target/x86_64-pc-windows-gnu/release/jiang.exe}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/象棋"
cp "$repo/src/xiangqi/book.jbk" "$tmp/象棋/book.jbk"
path="Z:$(echo "$tmp/象棋/book.jbk" | tr '/' '\\')"
{
  printf 'uci\r\n'
  printf 'setoption name OwnBook value true\r\n'
  printf 'setoption name BookFile value %s\r\n' "$path" | iconv -f UTF-8 -t GBK
  printf 'isready\r\nposition startpos\r\ngo movetime 5000\r\n'
  sleep 3
  printf 'quit\r\n'
} | LC_ALL=zh_CN.UTF-8 "$here/wine-jiang.sh" "$exe" 2>/dev/null | tr -d '\r' >"$tmp/out"
if grep -q "^info string book move" "$tmp/out" && ! grep -q "cannot read the book" "$tmp/out"; then
  echo "ansi-input: a GBK book path opened ($(grep -m1 '^info string book move' "$tmp/out"))"
else
  echo "ansi-input: FAILED: the book path sent in GBK did not open; the engine said:" >&2
  grep -v '^option\|^id' "$tmp/out" >&2
  exit 1
fi
