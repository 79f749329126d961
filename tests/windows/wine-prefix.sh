#!/usr/bin/env bash
# Makes a Wine prefix in which jiang.exe runs, and prints its path.
#
#   tests/windows/wine-prefix.sh            # prefix: $WINEPREFIX, else target/wine-prefix
#
# Wine 8.0 (Debian 12) lacks bcryptprimitives.dll, from which Rust's standard library on
# Windows 10+ imports ProcessPrng, so jiang.exe would not start there. This builds the
# stand-in DLL of processprng.c with MinGW-w64 and puts it into the prefix's system32
# (a test aid only: real Windows has the DLL, the shipped jiang.exe needs nothing).
# Needs wine and x86_64-w64-mingw32-gcc (Debian: apt-get install wine gcc-mingw-w64-x86-64).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prefix="${WINEPREFIX:-$repo/target/wine-prefix}"
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

for tool in wine wineserver x86_64-w64-mingw32-gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "wine-prefix.sh: '$tool' is missing (Debian: apt-get install wine gcc-mingw-w64-x86-64)" >&2
    exit 1
  fi
done

system32="$prefix/drive_c/windows/system32"
if [ ! -d "$system32" ]; then
  mkdir -p "$prefix"
  echo "wine-prefix.sh: creating the Wine prefix $prefix (once, about half a minute)" >&2
  wineboot --init >/dev/null 2>&1 || true
  wineserver --wait
  if [ ! -d "$system32" ]; then
    echo "wine-prefix.sh: wineboot made no $system32" >&2
    exit 1
  fi
fi

dll="$system32/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/processprng.c" -nt "$dll" ]; then
  x86_64-w64-mingw32-gcc -O2 -shared -o "$dll.tmp" "$here/processprng.c" -ladvapi32
  mv "$dll.tmp" "$dll"
fi
echo "$prefix"
