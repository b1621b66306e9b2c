#!/usr/bin/env bash
# Size: gzip -9 bytes of the final .wasm (wasm-opt -Oz, as shipped in the package) plus
# the JS a browser loads, measured like the peers' figures in the issue: the package
# entry bundled by esbuild (everything it imports: wasm-bindgen glue, snippets, TS
# entry files, generated schemas), --minify, gzip -9. The unminified bundle is printed
# too. Rows:
#   package           import * from "cirrus-storefront" (client + cart + checkout + money)
#   client-only app   import { init, CirrusClient, CirrusError } from the root (tree-shaken JS; same wasm)
#   cirrus-storefront/client   the catalog-only subpath: its own wasm (`--features sdk-only`,
#                     no cart/checkout exports) and JS
#   adapters          cirrus-storefront/adapters (Stripe.js + localstripe), loaded on checkout
# Peers: the same bundle measure of @medusajs/js-sdk, swell-js, @chec/commerce.js,
# @shopify/storefront-api-client (installed from npm once). Budgets: 40 KB (client row), 64 KB (package row).
# Usage: scripts/bench-size.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_node_modules
W="$ROOT/target/bench-size"
P="$W/pkg"   # its own build: other runs may rebuild pkg/ meanwhile
mkdir -p "$W"
CIRRUS_PKG_OUT="$P" bash scripts/build-pkg.sh >"$W/build.log" 2>&1 \
  || { tail -20 "$W/build.log"; die "scripts/build-pkg.sh failed"; }

ESBUILD="$ROOT/node_modules/.bin/esbuild"
gz() { gzip -9c | wc -c; }
# bundle ENTRY [--minify]: the JS an app importing ENTRY ships, on stdout
bundle() { "$ESBUILD" "$1" --bundle --format=esm --platform=browser --log-level=error "${@:2}"; }

cat >"$W/all.mjs" <<EOF
export * from "$P/index.js";
EOF
cat >"$W/client-only.mjs" <<EOF
export { init, CirrusClient, CirrusError } from "$P/index.js";
EOF
cat >"$W/adapters.mjs" <<EOF
export * from "$P/adapters/index.js";
EOF

wasm_raw=$(wc -c <"$P/cirrus_storefront_bg.wasm")
wasm_gz=$(gz <"$P/cirrus_storefront_bg.wasm")
row() { # row LABEL WASM_GZ ENTRY
  local js js_min
  js=$(bundle "$3" | gz); js_min=$(bundle "$3" --minify | gz)
  printf '%-24s wasm %6d B gz | JS bundle %6d B gz, minified %6d B gz | total %6d B = %.1f KB (minified JS)\n' \
    "$1" "$2" "$js" "$js_min" "$(($2 + js_min))" "$(echo "($2 + $js_min) / 1000" | bc -l)"
}
echo "wasm (package): $wasm_raw B raw, $wasm_gz B gzip -9"
row "package" "$wasm_gz" "$W/all.mjs"
row "client-only app" "$wasm_gz" "$W/client-only.mjs"

cat >"$W/catalog.mjs" <<EOF
export * from "$P/client/index.js";
EOF
echo "wasm (client/): $(wc -c <"$P/client/cirrus_storefront_bg.wasm") B raw, $(gz <"$P/client/cirrus_storefront_bg.wasm") B gzip -9"
row "cirrus-storefront/client" "$(gz <"$P/client/cirrus_storefront_bg.wasm")" "$W/catalog.mjs"
printf '%-24s JS bundle %6d B gz, minified %6d B gz (an import of its own, not in the rows above)\n' \
  "adapters" "$(bundle "$W/adapters.mjs" | gz)" "$(bundle "$W/adapters.mjs" --minify | gz)"
# Peers measured the same way in the same run (installed once into target/bench-size/peers;
# skipped with a note when the npm registry cannot be reached).
PEERS=(@medusajs/js-sdk swell-js @chec/commerce.js @shopify/storefront-api-client)
PD="$W/peers"
if [ ! -f "$PD/.installed" ]; then
  mkdir -p "$PD" && echo '{ "name": "peers", "private": true, "type": "module" }' >"$PD/package.json"
  (cd "$PD" && npm install --silent --no-audit --no-fund "${PEERS[@]}" >/dev/null 2>&1) && touch "$PD/.installed" || true
fi
if [ -f "$PD/.installed" ]; then
  for p in "${PEERS[@]}"; do
    echo "export * from \"$p\";" >"$PD/entry.mjs"
    printf '%-32s %-8s minified %6d B gz\n' "peer $p" "$(node -p "require('$PD/node_modules/$p/package.json').version")" \
      "$(cd "$PD" && bundle entry.mjs --minify | gz)"
  done
else
  echo "peers not measured (npm registry unreachable); the issue's figures: @shopify/storefront-api-client 3.9 KB, @chec/commerce.js 15.5 KB, @medusajs/js-sdk 28.8 KB, swell-js 53.9 KB"
fi
echo "budgets (issues 10 and 11): cirrus-storefront/client row <= 40 KB, package row <= 64 KB"
