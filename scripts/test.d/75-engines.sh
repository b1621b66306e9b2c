#!/usr/bin/env bash
# Stage 75-engines (issue 34): the demo storefront's buyer flow (grid, options, add, the cart
# in two tabs, checkout with 4242, 3-D Secure, a decline) through WebDriver in Chromium
# (chromedriver), Firefox ESR (geckodriver) and WebKitGTK (WebKitWebDriver under Xvfb), the
# last twice: LANG=en_US.UTF-8 and LANG=C.UTF-8 (navigator.language "C"). In each, a checkout
# on a page served with exactly the README's Content-Security-Policy (tests/engines/csp/).
# Prints each engine's version and the steps passed; fails on any step, page error or CSP
# violation. A failure's screenshot goes to artifacts/engines/.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT

: "${CIRRUS_API_KEY:?run through scripts/test.sh (it exports a fresh CIRRUS_API_KEY)}"
ensure_chromium
ensure_firefox
ensure_webkit
ensure_python_tools
ensure_node_modules
LS_PORT=$(P 18428) SERVER_PORT=$(P 18799) ENGINES_PORT=$(P 18810)
cd "$ROOT"

# The package in a directory of this run's own (other stages and other checkouts' runs rebuild
# pkg/ in place); built only when its inputs changed since the last build (build-pkg.sh).
pkg_copy="$RUN_DIR/engines-pkg"
CIRRUS_PKG_OUT="$pkg_copy" scripts/build-pkg.sh >/dev/null
[ -f "$pkg_copy/index.js" ] && [ -f "$pkg_copy/adapters/localstripe.js" ] || die "the package is incomplete"
www_dir="$RUN_DIR/engines-www"
node www/build.mjs --pkg "$pkg_copy" --out "$www_dir" --processor localstripe --localstripe "http://127.0.0.1:$LS_PORT" >/dev/null

build_server
start_localstripe "$LS_PORT"
# The CSP page is a storefront on an origin of its own (ENGINES_PORT): the API answers it cross-origin.
start_server "$SERVER_PORT" CIRRUS_TEST_HOOKS=1 CIRRUS_WWW_DIR="$www_dir" CIRRUS_API_KEY="$CIRRUS_API_KEY" \
  CIRRUS_CORS_ORIGINS="http://127.0.0.1:$ENGINES_PORT" CIRRUS_RATE_LIMIT=100000

export E2E_SITE="http://127.0.0.1:$SERVER_PORT/" E2E_ARTIFACTS="$ROOT/artifacts/engines" ENGINES_PORT ENGINES_PKG_DIR="$pkg_copy"
rm -rf "$E2E_ARTIFACTS"; mkdir -p "$E2E_ARTIFACTS"
node tests/engines/run.mjs
