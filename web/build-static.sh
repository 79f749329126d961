#!/usr/bin/env bash
# Builds the static web bundle: the board's page (web/assets/), the engine compiled to
# WebAssembly (the jiang-wasm member, wasm32-unknown-unknown with simd128) and the
# network file, into one folder that any static web server can serve as it is
# (`python3 -m http.server` does). See docs/browser.md.
#
#   bash web/build-static.sh [OUTDIR]      (default: target/web-static)
#
# The module and the network get content-hashed names (jiang-HASH.wasm, jiang-HASH.nnue)
# listed in bundle.json, so a browser that kept an older network never uses it with a
# newer engine. Prints each file's size and the gzip -9 total of everything but the
# network (the page keeps the network after its first visit).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-target/web-static}"
TARGET_DIR="${CARGO_TARGET_DIR:-target}"

if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed | grep -qx wasm32-unknown-unknown \
        || rustup target add wasm32-unknown-unknown
fi
# .cargo/config.toml adds simd128 and the search's stack size for this target.
cargo build --release --target wasm32-unknown-unknown -p jiang-wasm
WASM="$TARGET_DIR/wasm32-unknown-unknown/release/jiang_wasm.wasm"
NET=src/xiangqi/nnue/default.nnue
[ -s "$WASM" ] || { echo "build-static: $WASM was not built" >&2; exit 1; }

short_hash() { sha256sum "$1" | cut -c1-12; }
wasm_name="jiang-$(short_hash "$WASM").wasm"
net_name="jiang-$(short_hash "$NET").nnue"
net_bytes=$(stat -c %s "$NET")
version=$(sed -n 's/^version = "\(.*\)"/\1/p' wasm/Cargo.toml | head -1)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

rm -rf "$OUT"
mkdir -p "$OUT"
cp web/assets/index.html web/assets/*.js web/assets/*.css "$OUT"/
cp "$WASM" "$OUT/$wasm_name"
cp "$NET" "$OUT/$net_name"
cat >"$OUT/bundle.json" <<JSON
{
  "wasm": "$wasm_name",
  "network": "$net_name",
  "network_bytes": $net_bytes,
  "version": "$version",
  "commit": "$commit"
}
JSON

echo "build-static: bundle in $OUT/"
total=0
for f in "$OUT"/*; do
    name=$(basename "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    printf '  %-28s %9d bytes  %9d gzip -9\n' "$name" "$(stat -c %s "$f")" "$gz"
    case "$name" in *.nnue) ;; *) total=$((total + gz)) ;; esac
done
echo "build-static: page + engine, gzip -9: $total bytes (the network apart)"
