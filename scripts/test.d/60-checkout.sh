#!/usr/bin/env bash
# Stage 60-checkout (issue 5): the checkout state machine natively, the
# processor adapters type-checked against @stripe/stripe-js (tsc --strict),
# Checkout's orchestration in node with fakes (tests/checkout/unit.test.mjs),
# then Checkout + the localstripe adapter in headless Chromium against a fresh
# dev server (test hooks on, serving the test page) and a fresh localstripe:
# success, 3-D Secure, declines, double clicks, reloads, lost confirms; and
# issue 16's never-charge-twice situations (lost answers, tabs going away,
# the webhook path) counted in localstripe and the server's orders.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT

: "${CIRRUS_API_KEY:?run through scripts/test.sh (it exports a fresh CIRRUS_API_KEY)}"
ensure_chromium
ensure_python_tools
ensure_node_modules
LS_PORT=$(P 18423) SERVER_PORT=$(P 18793)
cd "$ROOT"

log "checkout: state machine (native)"
cargo test -q -p cirrus-storefront --lib checkout::

log "checkout: adapters type-check (tsc --strict, @stripe/stripe-js types)"
node_modules/.bin/tsc -p tests/checkout/tsconfig.json

[ -x "$ROOT/scripts/build-pkg.sh" ] || die "scripts/build-pkg.sh is missing: the checkout tests need the npm package"
log "checkout: building the package (its own copy, CIRRUS_PKG_OUT) and the test page"
www="$RUN_DIR/checkout-www"
rm -rf "$www"; mkdir -p "$www/checkout-test"
CIRRUS_PKG_OUT="$www/checkout-test/pkg" "$ROOT/scripts/build-pkg.sh" >/dev/null
[ -f "$www/checkout-test/pkg/adapters/localstripe.js" ] || die "the package does not ship the processor adapters (pkg/adapters/)"
cp "$ROOT"/tests/checkout/{page.html,page.js,stripe-adapter.html,stripe-stub.js} "$www/checkout-test/"
# The package's types as a consumer sees them, with the checkout API used for real.
node_modules/.bin/tsc -p tests/checkout/tsconfig.consumer.json || die "the checkout types do not type-check as a consumer"

log "checkout: orchestration in node (fake client, adapter and storage; call order)"
CHECKOUT_PKG="$www/checkout-test/pkg" node --test --test-reporter=spec tests/checkout/unit.test.mjs

build_server
start_localstripe "$LS_PORT"
start_server "$SERVER_PORT" CIRRUS_TEST_HOOKS=1 CIRRUS_CORS_ORIGINS='*' CIRRUS_WWW_DIR="$www" CIRRUS_API_KEY="$CIRRUS_API_KEY"

export E2E_SITE="http://127.0.0.1:$SERVER_PORT/" E2E_ARTIFACTS="$ROOT/artifacts/checkout"
# The server reads and precompresses its www directory (the package's wasm files among it) on
# the first request for it: ask once here, so that work is not counted in the first test's
# navigation timeout (15 s; 15-25 s on a loaded 2-core machine).
curl -s -o /dev/null --max-time 120 "${E2E_SITE}checkout-test/page.html" || die "the dev server did not serve the checkout test page"
node --test --test-concurrency=1 --test-reporter=spec tests/checkout/checkout.test.mjs tests/checkout/never-twice.test.mjs tests/checkout/stripe-adapter.test.mjs
