#!/usr/bin/env bash
# Size: gzip -9 bytes of the final .wasm (wasm-opt -Oz) plus the JS a browser
# loads (wasm-bindgen glue, snippets, the package entry), for the whole package
# (scripts/build-pkg.sh → pkg/) and for the SDK client alone (`sdk-only`: no
# Cart/Checkout exports). Budget: 30 KB.
# Usage: scripts/bench-size.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
P="$ROOT/target/bench-size/pkg"   # its own build: other runs may rebuild pkg/ meanwhile
CIRRUS_PKG_OUT="$P" bash scripts/build-pkg.sh >"$RUN_DIR/bench-size-build.log" 2>&1 \
  || { tail -20 "$RUN_DIR/bench-size-build.log"; die "scripts/build-pkg.sh failed"; }

gz() { cat "$@" | gzip -9c | wc -c; }
# The JS as the peers' figures were measured: each file through esbuild --minify, then gzip -9.
gzmin() { local f; for f in "$@"; do "$ROOT/node_modules/.bin/esbuild" --log-level=error --minify "$f"; echo; done | gzip -9c | wc -c; }
report() { # report LABEL WASM JSFILES...
  local label=$1 wasm=$2; shift 2
  local w j m
  w=$(gz "$wasm"); j=$(gz "$@"); m=$(gzmin "$@")
  printf '%-38s wasm %7d B raw, %6d B gz | JS %6d B gz (%6d B minified+gz) | total %6d B gz (%.1f KB); with minified JS %.1f KB\n' \
    "$label" "$(wc -c <"$wasm")" "$w" "$j" "$m" "$((w + j))" "$(echo "($w + $j) / 1000" | bc -l)" "$(echo "($w + $m) / 1000" | bc -l)"
}
entry_js=("$P"/index.js "$P"/client.js "$P"/error.js "$P"/ready.js "$P"/init-sync.js)
report "package (SDK + cart + checkout)" "$P"/cirrus_storefront_bg.wasm "$P"/cirrus_storefront.js "$P"/snippets/*/js/*.js "$P"/snippets/*/js/generated/*.js "${entry_js[@]}"

OUT="$ROOT/target/bench-size/sdk-only"
rm -rf "$OUT"
wasm-pack --quiet build --release --target web --no-pack --out-dir "$OUT" --out-name cirrus_storefront -- --features sdk-only >/dev/null 2>&1
"$ROOT/node_modules/.bin/wasm-opt" --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext \
  --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
  -Oz "$OUT/cirrus_storefront_bg.wasm" -o "$OUT/opt.wasm"
report "SDK client only (--features sdk-only)" "$OUT/opt.wasm" "$OUT/cirrus_storefront.js" "$OUT"/snippets/*/js/*.js "$OUT"/snippets/*/js/generated/*.js "${entry_js[@]}"
echo "budget: 30 KB; peers (esbuild --minify, gzip -9, from the issue): @shopify/storefront-api-client 3.9 KB, @chec/commerce.js 15.5 KB, @medusajs/js-sdk 28.8 KB, swell-js 53.9 KB"
