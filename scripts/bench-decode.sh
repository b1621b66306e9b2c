#!/usr/bin/env bash
# Speed: `client.products({ limit: 500 })` (fetch to validated objects) against what a
# JavaScript SDK pays on the same in-memory stub, `Response.json()`, in headless Chromium,
# through the package as shipped (scripts/build-pkg.sh). The variants are interleaved round
# by round; medians with p25–p75 and min–max, and the ratio (tests/sdk/bench-decode.mjs).
# Usage: CIRRUS_PORT_OFFSET=N scripts/bench-decode.sh [ROUNDS]   (default 41)
#        CIRRUS_BENCH_BASELINE_PKG=DIR ...: another build of the package (e.g. main's, built with
#        CIRRUS_PKG_OUT=DIR scripts/build-pkg.sh in its checkout) runs in the same page as one
#        more interleaved variant, and the per-round ratio of the two builds is printed.
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
node tests/sdk/bench-decode.mjs "$OUT/pkg" "$OUT/products-500.json" "${1:-41}" ${CIRRUS_BENCH_BASELINE_PKG:+"$CIRRUS_BENCH_BASELINE_PKG"}
