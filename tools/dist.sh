#!/usr/bin/env bash
# Builds the release archives from this checkout, into target/dist/:
#
#   jiang-VERSION-windows-x86_64.zip   jiang.exe, the GUI guide (English, 简体中文), LICENSE.txt
#   jiang-VERSION-linux-x86_64.tar.gz  jiang, the GUI guide, LICENSE
#   jiang-VERSION-web.zip              the static web board (web/build-static.sh)
#   SHA256SUMS                         sha256sum of each archive
#
#   tools/dist.sh [--skip-web] [--version NAME]
#
# VERSION is the crate's version when HEAD is tagged vVERSION, else VERSION-dev-DATE-COMMIT
# (the build stamp `jiang --version` prints); --version NAME sets it. Installs what it
# needs where it can (the Rust target x86_64-pc-windows-gnu with rustup; MinGW-w64 and zip
# with apt-get, as root or with sudo) and otherwise names what is missing
# (tools/need.sh). Works from a clean clone; a source archive without .git builds too
# (its binaries then say "commit unknown").
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
# shellcheck source=need.sh
source tools/need.sh

skip_web=0
version=""
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-web) skip_web=1 ;;
    --version) version="${2:?--version needs a name}"; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "dist.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# The web board's static bundle (the page with jiang compiled to WebAssembly, for any
# static web host): built here by web/build-static.sh, packed below.
web_bundle="target/dist-web-static"
if [ "$skip_web" = 0 ]; then
  rm -rf "$web_bundle"
  bash web/build-static.sh "$web_bundle"
fi
if [ "$skip_web" = 0 ] && [ ! -f "$web_bundle/index.html" ]; then
  echo "dist.sh: the static web bundle $web_bundle/ (with its index.html) is missing:" >&2
  echo "         build the in-browser board first (see web/README.md), or pass --skip-web" >&2
  exit 1
fi
# -----------------------------------------------------------------------------------------

command -v cargo >/dev/null 2>&1 || need_missing cargo "install a Rust toolchain: https://rustup.rs"
need_rust_target x86_64-pc-windows-gnu
need_command x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
need_command x86_64-w64-mingw32-strip binutils-mingw-w64-x86-64
need_command strip binutils
need_command zip zip
need_command sha256sum coreutils

crate_version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
if [ -z "$version" ]; then
  if git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git tag --points-at HEAD "v$crate_version" 2>/dev/null)" ]; then
    version="$crate_version"
  elif stamp="$(git show -s --date=format:%Y%m%d --format=%cd-%h --abbrev=7 HEAD 2>/dev/null)"; then
    version="$crate_version-dev-$stamp"
  else
    version="$crate_version-dev-unknown"
  fi
fi
# Archive entries get the commit's time, else now: the Linux tarball is then the same
# byte for byte on every run; the zip differs by the link time stamp in jiang.exe's PE
# header (MinGW's linker and strip write it).
epoch="$(git show -s --format=%ct HEAD 2>/dev/null || date +%s)"

echo "== building jiang $version (Linux and Windows, x86-64)"
cargo build --release --bin jiang
cargo build --release --target x86_64-pc-windows-gnu --bin jiang

out="target/dist"
stage="$out/stage"
rm -rf "$stage"
mkdir -p "$stage"
rm -f "$out"/jiang-*.zip "$out"/jiang-*.tar.gz "$out/SHA256SUMS"

# stage NAME: a folder NAME with the guides and the licence ($2: the licence's file name).
stage_common() {
  mkdir -p "$stage/$1"
  cp docs/gui-guide.md docs/gui-guide.zh-CN.md "$stage/$1/"
  cp LICENSE "$stage/$1/$2"
}

win="jiang-$version-windows-x86_64"
stage_common "$win" LICENSE.txt
cp target/x86_64-pc-windows-gnu/release/jiang.exe "$stage/$win/"
x86_64-w64-mingw32-strip "$stage/$win/jiang.exe"

linux="jiang-$version-linux-x86_64"
stage_common "$linux" LICENSE
cp target/release/jiang "$stage/$linux/"
strip "$stage/$linux/jiang"

if [ "$skip_web" = 0 ]; then
  web="jiang-$version-web"
  mkdir -p "$stage/$web"
  cp -R "$web_bundle/." "$stage/$web/"
  cp LICENSE "$stage/$web/LICENSE"
fi

find "$stage" -exec touch -h -d "@$epoch" {} +
(
  cd "$stage"
  TZ=UTC zip -q -X -r "../$win.zip" "$win"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$linux" \
    | gzip -n -9 >"../$linux.tar.gz"
  if [ "$skip_web" = 0 ]; then TZ=UTC zip -q -X -r "../$web.zip" "$web"; fi
)
rm -rf "$stage"
(cd "$out" && sha256sum jiang-"$version"-* >SHA256SUMS)

echo "== target/dist/"
(cd "$out" && ls -l jiang-"$version"-* SHA256SUMS | awk '{print $5, $NF}')
cat "$out/SHA256SUMS"
[ "$skip_web" = 1 ] && echo "(no web bundle: --skip-web)"
echo "binaries: $(target/release/jiang --version)"
