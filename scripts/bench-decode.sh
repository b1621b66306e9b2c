#!/usr/bin/env bash
# Speed: decoding + validating a 500-product GET /products body in headless
# Chromium vs a bare JSON.parse of the same body (median of 30), through the
# package as shipped (scripts/build-pkg.sh).
# Usage: scripts/bench-decode.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules
CIRRUS_API_KEY="$(new_api_key)"
trap stop_services EXIT
OUT="$ROOT/target/bench-decode"
rm -rf "$OUT" && mkdir -p "$OUT"
start_localstripe $(P 18421)
build_server
start_server $(P 18791) CIRRUS_SEED_PRODUCTS=600 CIRRUS_API_KEY="$CIRRUS_API_KEY"
curl -sf -H "Authorization: Bearer $CIRRUS_API_KEY" "$CIRRUS_BASE_URL/products?limit=500" -o "$OUT/products-500.json"
stop_services || true   # (lib.sh: `wait` on a killed pid returns 143)
log "building the package (scripts/build-pkg.sh)"
CIRRUS_PKG_OUT="$OUT/pkg" bash "$ROOT/scripts/build-pkg.sh" >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; die "build failed"; }
node tests/sdk/bench-decode.mjs "$OUT/pkg" "$OUT/products-500.json"
