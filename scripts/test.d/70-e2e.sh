#!/usr/bin/env bash
# Stage 70-e2e: the demo storefront (www/) end to end in Debian's Chromium
# (playwright-core), against a fresh dev server (test hooks on, serving the
# page) and a fresh localstripe. Screenshots and bench.json go to artifacts/e2e/; the stage
# fails if one of the nine expected screenshots is missing, empty, not a PNG or not as
# wide as its viewport, or if docs/screenshot-home-1280.png (the README's, copied from
# artifacts/e2e/home-1280.png) is not a PNG of the same size.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT

: "${CIRRUS_API_KEY:?run through scripts/test.sh (it exports a fresh CIRRUS_API_KEY)}"
ensure_chromium
LS_PORT=$(P 18427) SERVER_PORT=$(P 18797) SPARE_PORT=$(P 18798)

[ -x "$ROOT/scripts/build-pkg.sh" ] || die "scripts/build-pkg.sh is missing: the demo needs the npm package"
log "e2e: building the package and the page"
# The package in a directory of this run's own (other stages and other checkouts' runs rebuild
# pkg/ in place); built only when its inputs changed since the last build (build-pkg.sh).
pkg_copy="$RUN_DIR/e2e-pkg"
CIRRUS_PKG_OUT="$pkg_copy" "$ROOT/scripts/build-pkg.sh" >/dev/null
[ -f "$pkg_copy/cirrus_storefront_bg.wasm" ] && [ -f "$pkg_copy/adapters/localstripe.js" ] || die "the package is incomplete"
build_server
www_dir="$RUN_DIR/e2e-www"
node "$ROOT/www/build.mjs" --pkg "$pkg_copy" --out "$www_dir" --processor localstripe --localstripe "http://127.0.0.1:$LS_PORT"
# The page is TypeScript against the package's generated types: type-check it as a consumer.
(cd "$ROOT" && node_modules/.bin/tsc -p www/tsconfig.json --noEmit) || die "www/ does not type-check against the package"

port_free "$SPARE_PORT" || die "port $SPARE_PORT (spare server for the server-down test) is in use"
start_localstripe "$LS_PORT"
start_server "$SERVER_PORT" CIRRUS_TEST_HOOKS=1 CIRRUS_WWW_DIR="$www_dir" CIRRUS_API_KEY="$CIRRUS_API_KEY"

export E2E_SITE="http://127.0.0.1:$SERVER_PORT/" E2E_WWW_DIR="$www_dir" E2E_SPARE_PORT="$SPARE_PORT"
export E2E_ARTIFACTS="$ROOT/artifacts/e2e"
rm -rf "$E2E_ARTIFACTS"; mkdir -p "$E2E_ARTIFACTS"
cd "$ROOT"
node --test --test-concurrency=1 --test-reporter=spec \
  tests/e2e/storefront.test.mjs tests/e2e/views.test.mjs tests/e2e/checkout.test.mjs tests/e2e/never-twice.test.mjs tests/e2e/resilience.test.mjs tests/e2e/bench.test.mjs

# The screenshots the tests must write (name: viewport width): each must exist, be a PNG and
# be as wide as its viewport. A test that stops writing one fails the stage.
png_width() { od -An -j16 -N4 -tu1 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
is_png() { [ "$(od -An -N8 -tx1 "$1" | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
missing=0
for shot in home-1280 home-390 product-1280 cart-390 checkout-1280 order-1280 three-d-secure-390 declined-1280 server-down-390; do
  f="$E2E_ARTIFACTS/$shot.png" want=${shot##*-}
  if [ ! -s "$f" ]; then log "screenshot missing or empty: artifacts/e2e/$shot.png"; missing=1; continue; fi
  is_png "$f" || { log "not a PNG: artifacts/e2e/$shot.png"; missing=1; continue; }
  [ "$(png_width "$f")" = "$want" ] || { log "artifacts/e2e/$shot.png is $(png_width "$f") px wide, not $want"; missing=1; }
done
# The README's screenshot is this stage's home-1280.png, copied by hand (its caption says so):
# it must be a PNG of the same size.
readme_shot="$ROOT/docs/screenshot-home-1280.png"
grep -q 'docs/screenshot-home-1280.png' "$ROOT/README.md" || { log "README.md no longer shows docs/screenshot-home-1280.png"; missing=1; }
if [ ! -s "$readme_shot" ] || ! is_png "$readme_shot"; then
  log "docs/screenshot-home-1280.png is missing or not a PNG"; missing=1
elif [ "$(od -An -j16 -N8 -tx1 "$readme_shot")" != "$(od -An -j16 -N8 -tx1 "$E2E_ARTIFACTS/home-1280.png")" ]; then
  log "docs/screenshot-home-1280.png is not the size of artifacts/e2e/home-1280.png (copy it again)"; missing=1
fi
[ "$missing" -eq 0 ] || die "screenshots missing or wrong (see above)"
log "e2e: screenshots in artifacts/e2e/ ($(ls "$E2E_ARTIFACTS"/*.png | wc -l) png), all 9 expected present"
