#!/usr/bin/env bash
# The Next.js template (templates/next/, issue 32): the packed package installed into a copy of
# the template, `next build` (production) and `next start` against a fresh dev server (test
# hooks on) and localstripe, then tests/next/flow.test.mjs in headless Chromium: browse, the
# server HTML of the product page (options, price, enabled "Add to cart"), pick options and
# add, the cart in two tabs, the badge with no .wasm, two orders (a triple click on Pay, a
# reload mid-checkout, 3-D Secure with a reload during the challenge), the charges counted in
# localstripe and the orders in /__test/orders, and no hydration warning or console error.
# CIRRUS_NEXT_TARBALL=path.tgz uses that tarball instead of building the package.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/next-template.sh"
cd "$ROOT"
ensure_wasm_toolchain
ensure_chromium
ensure_python_tools
ensure_node_modules
: "${CIRRUS_API_KEY:=$(new_api_key)}"
export CIRRUS_API_KEY

W="$ROOT/target/stage-75-next"
rm -rf "$W" && mkdir -p "$W"
t0=$SECONDS
if [ -n "${CIRRUS_NEXT_TARBALL:-}" ]; then # an already packed package (e.g. stage 45-runtimes')
  tarball=$CIRRUS_NEXT_TARBALL
else
  tarball=$(pack_sdk "$W")
fi
log "package packed in $((SECONDS - t0)) s: ${tarball#"$ROOT"/}"
build_template "$W/app" "$tarball"

trap 'stop_template; stop_services' EXIT
start_localstripe "$(P 18469)"
build_server
start_server "$(P 18796)" CIRRUS_API_KEY="$CIRRUS_API_KEY" CIRRUS_TEST_HOOKS=1 CIRRUS_FRONTEND_DOMAIN="127.0.0.1:$(P 3405)"
export E2E_SITE="${CIRRUS_BASE_URL%/api/v1}/" E2E_ARTIFACTS="$ROOT/artifacts/e2e"
start_template "$W/app" "$(P 3405)"
t0=$SECONDS
node --test --test-reporter=spec tests/next/flow.test.mjs || {
  echo "next start's log (last 40 lines):" >&2; tail -40 "$W/app/next.log" >&2; exit 1
}
log "browser flow in $((SECONDS - t0)) s"
