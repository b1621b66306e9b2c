#!/usr/bin/env bash
# Cart and money (issue 4), through the built package:
# - browser tests in headless Chromium, Firefox ESR and WebKitGTK: money helpers, the Cart
#   class, persistence in localStorage, two tabs following each other;
# - agreement with the dev server: 1,000 seeded random carts (seed printed;
#   CART_SEED=… replays), SDK subtotal == initiate breakdown.subtotal, and
#   SDK subtotal + chosen rate == server subtotal + shipping after update;
# - the 1,000-line cart pricing benchmark (fails over the 1 ms budget).
# The native property tests run in stage 10-core.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
trap stop_services EXIT
ensure_chromium
ensure_firefox
ensure_webkit
ensure_node_modules
: "${CIRRUS_API_KEY:=$(new_api_key)}"
export CIRRUS_API_KEY

# The package in a directory of this stage's own (other stages and other people's runs rebuild
# pkg/ in place); built only when its inputs changed since the last build (build-pkg.sh).
CIRRUS_PKG_OUT="$ROOT/target/cart-pkg" scripts/build-pkg.sh
[ -f target/cart-pkg/index.js ] && [ -f target/cart-pkg/node.js ] || die "the package is incomplete"
export CART_PKG_DIR="$ROOT/target/cart-pkg"
# The static server of the browser tests, shifted like every other port (CIRRUS_PORT_OFFSET).
export CART_STATIC_PORT="${CART_STATIC_PORT:-$(P 18802)}"

log "cart: TypeScript consumer (tsc --strict; @ts-expect-error lines must not compile)"
mkdir -p target/cart-consumer
sed 's#"\.\./\.\./pkg/index\.js"#"../cart-pkg/index.js"#' tests/cart/consumer.ts >target/cart-consumer/consumer.ts
grep -q '"../cart-pkg/index.js"' target/cart-consumer/consumer.ts || die "consumer.ts import not rewritten"
node_modules/.bin/tsc --strict --noEmit --target es2022 --module nodenext --moduleResolution nodenext \
  --lib es2022,dom target/cart-consumer/consumer.ts

log "cart: browser tests in Chromium"
node --test --test-reporter=spec tests/cart/browser.test.mjs
# The same tests in Firefox ESR and WebKitGTK, through WebDriver (tests/engines/pages.mjs).
for engine in firefox webkit; do
  log "cart: browser tests in $engine"
  CART_ENGINE=$engine CART_DRIVER_PORT=$(P 18830) node --test --test-reporter=spec tests/cart/browser.test.mjs
done

log "cart: agreement with the dev server"
build_server
start_localstripe $(P 18422)
start_server $(P 18792) CIRRUS_TEST_HOOKS=1 CIRRUS_CORS_ORIGINS='*' CIRRUS_RATE_LIMIT=100000
node --test --test-reporter=spec tests/cart/agreement.test.mjs

log "cart: benchmark"
node tests/cart/bench.mjs
