#!/usr/bin/env bash
# The Windows block of .ci/run: jiang.exe cross-built with MinGW-w64 and tested under
# Wine against the native build. Installs what it needs (the Rust target with rustup;
# MinGW-w64, Wine and a zh_CN locale with apt-get) and fails, naming what is missing,
# where it cannot. JIANG_SKIP_WINDOWS_TEST=1 in .ci/run skips it.
#
#   tests/windows/ci.sh
#
# Steps: the build; --version and CR LF line ends; the GUI sequences (tests/gui.rs) and
# the protocol tests (tests/protocol.rs: the 10 s cap, stop, quit, pondering, bad input)
# on jiang.exe; a GBK path (ansi-input.sh); the bench signature against the native one
# (bench-compare.sh); its hash table on huge pages under Wine (huge-pages.sh); a short
# refereed match, jiang.exe against the native build (match.sh;
# JIANG_WINDOWS_MATCH_GAMES games at 200 ms a move, default 2).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"
# shellcheck source=../../tools/need.sh
source tools/need.sh
need_rust_target x86_64-pc-windows-gnu
need_command x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
need_command wine wine
need_command iconv libc-bin
need_command unzip unzip
need_locale zh_CN.UTF-8

exe=target/x86_64-pc-windows-gnu/release/jiang.exe
echo "== Windows build (x86_64-pc-windows-gnu)"
cargo build --release --target x86_64-pc-windows-gnu --bin jiang
cargo build --release --bin jiang
echo "imports: $(x86_64-w64-mingw32-objdump -p "$exe" | awk '/DLL Name/ {print $3}' | sort -u | tr '\n' ' ')"
tests/windows/wine-prefix.sh >/dev/null

echo "== jiang.exe under Wine: version and line ends"
native_version="$(target/release/jiang --version)"
exe_version="$(tests/windows/wine-jiang.sh "$exe" --version 2>/dev/null | tr -d '\r')"
echo "$exe_version"
if [ "$native_version" != "$exe_version" ]; then
  echo "jiang.exe --version differs from the native build's: '$native_version'" >&2
  exit 1
fi
lines="$(printf 'uci\r\nisready\r\nquit\r\n' | tests/windows/wine-jiang.sh "$exe" 2>/dev/null)"
total="$(printf '%s\n' "$lines" | wc -l)"
crlf="$(printf '%s\n' "$lines" | grep -c $'\r$' || true)"
echo "$crlf of $total lines end in CR LF"
if [ "$total" -lt 3 ] || [ "$crlf" != "$total" ]; then
  echo "jiang.exe must end every line in CR LF" >&2
  exit 1
fi

echo "== GUI sequences and protocol tests on jiang.exe under Wine"
JIANG_TEST_EXE="$repo/$exe" JIANG_TEST_RUNNER="$here/wine-jiang.sh" \
  cargo test --release --test gui --test protocol
tests/windows/ansi-input.sh "$exe"

echo "== bench: jiang.exe against the native build"
tests/windows/bench-compare.sh 1
tests/windows/huge-pages.sh "$exe"

echo "== refereed match: jiang.exe (Wine) against the native build"
tests/windows/match.sh "${JIANG_WINDOWS_MATCH_GAMES:-2}" 200

echo "== release archives (tools/dist.sh --skip-web)"
tools/dist.sh --skip-web
zip_file="$(ls target/dist/jiang-*-windows-x86_64.zip)"
tar_file="$(ls target/dist/jiang-*-linux-x86_64.tar.gz)"
# The listings are read whole first: `lister | grep -q` under pipefail fails whenever grep
# stops reading before the lister has written everything (SIGPIPE), which CI once hit.
zip_listing="$(unzip -Z1 "$zip_file")"
tar_listing="$(tar -tzf "$tar_file")"
for f in jiang.exe gui-guide.md gui-guide.zh-CN.md LICENSE.txt; do
  grep -q "/$f\$" <<<"$zip_listing" || { echo "$zip_file lacks $f" >&2; exit 1; }
done
for f in jiang gui-guide.md gui-guide.zh-CN.md LICENSE; do
  grep -q "/$f\$" <<<"$tar_listing" || { echo "$tar_file lacks $f" >&2; exit 1; }
done
(cd target/dist && sha256sum --check --quiet SHA256SUMS)
unpacked="$(mktemp -d)"
unzip -q "$zip_file" -d "$unpacked"
shipped="$(tests/windows/wine-jiang.sh "$unpacked"/*/jiang.exe --version 2>/dev/null | tr -d '\r')"
rm -rf "$unpacked"
if [ "$shipped" != "$native_version" ]; then
  echo "the shipped jiang.exe says '$shipped', the build '$native_version'" >&2
  exit 1
fi
echo "archives checked: $(basename "$zip_file"), $(basename "$tar_file"), SHA256SUMS; shipped jiang.exe: $shipped"
