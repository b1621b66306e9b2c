#!/usr/bin/env bash
# Stage 70-e2e: the demo storefront (www/) end to end in Debian's Chromium
# (playwright-core), against a fresh dev server (test hooks on, serving the
# page) and a fresh localstripe. Screenshots and bench.json go to artifacts/e2e/.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT

: "${CIRRUS_API_KEY:?run through scripts/test.sh (it exports a fresh CIRRUS_API_KEY)}"
ensure_chromium
LS_PORT=$(P 18427) SERVER_PORT=$(P 18797) SPARE_PORT=$(P 18798)

[ -x "$ROOT/scripts/build-pkg.sh" ] || die "scripts/build-pkg.sh is missing: the demo needs the npm package"
log "e2e: building the package and the page"
"$ROOT/scripts/build-pkg.sh" >/dev/null
# Work from a copy of pkg/: other runs of build-pkg.sh (other stages, other checkouts'
# engineers) replace pkg/ while it is in use.
pkg_copy="$RUN_DIR/e2e-pkg"
for _ in $(seq 60); do
  rm -rf "$pkg_copy"
  if [ -f "$ROOT/pkg/package.json" ] && cp -r "$ROOT/pkg" "$pkg_copy" 2>/dev/null \
     && [ -f "$pkg_copy/package.json" ] && [ -f "$pkg_copy/cirrus_storefront_bg.wasm" ] && [ -f "$pkg_copy/adapters/localstripe.js" ]; then
    break
  fi
  sleep 2
done
[ -f "$pkg_copy/package.json" ] || die "pkg/ did not settle (is build-pkg.sh running elsewhere?)"
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
  tests/e2e/storefront.test.mjs tests/e2e/checkout.test.mjs tests/e2e/resilience.test.mjs tests/e2e/bench.test.mjs
log "e2e: screenshots in artifacts/e2e/ ($(ls "$E2E_ARTIFACTS"/*.png 2>/dev/null | wc -l) png)"
