#!/usr/bin/env bash
# THE demo command: sets up what is missing (idempotent), builds the npm package
# and the demo storefront, then runs localstripe (127.0.0.1:8420) and the dev
# server (127.0.0.1:8787, persistent database .cirrus/dev.sqlite) serving the
# page and the API on one origin. Stays in the foreground; Ctrl-C stops both.
#
# With real Stripe test keys in the environment (STRIPE_SECRET_KEY=sk_test_…,
# STRIPE_PUBLISHABLE_KEY=pk_test_…) it talks to Stripe instead of localstripe and
# the page uses Stripe.js's Payment Element.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_wasm_toolchain
ensure_python_tools
ensure_node_modules

log "building the npm package (scripts/build-pkg.sh)"
[ -x "$ROOT/scripts/build-pkg.sh" ] || die "scripts/build-pkg.sh is missing"
"$ROOT/scripts/build-pkg.sh" >/dev/null
log "building the dev server"
build_server

# The storefront's API key is the dev server's key file beside its database
# (.cirrus/dev.sqlite.key, mode 0600, git-ignored); the server never prints the key.
# Made here on the first run so the page can be built with it; read from the file after.
key_file="$RUN_DIR/dev.sqlite.key"
if [ -z "${CIRRUS_API_KEY:-}" ]; then
  [ -s "$key_file" ] || { (umask 077 && new_api_key >"$key_file"); }
  CIRRUS_API_KEY=$(tr -d '[:space:]' <"$key_file")
fi
export CIRRUS_API_KEY

real_stripe=0
if [[ ${STRIPE_SECRET_KEY:-} == sk_test_* && ${STRIPE_SECRET_KEY} != sk_test_localstripe ]]; then
  [[ ${STRIPE_PUBLISHABLE_KEY:-} == pk_test_* ]] || die "STRIPE_SECRET_KEY is set: also set STRIPE_PUBLISHABLE_KEY=pk_test_…"
  real_stripe=1
fi

www_dir="$ROOT/www/dist"
log "building the demo page (www/ -> www/dist)"
if [ $real_stripe -eq 1 ]; then
  node "$ROOT/www/build.mjs" --out "$www_dir" --processor stripe
else
  node "$ROOT/www/build.mjs" --out "$www_dir" --processor localstripe --localstripe http://127.0.0.1:8420
fi

trap stop_services EXIT
trap 'echo; log "stopping"; exit 0' INT TERM

if [ $real_stripe -eq 1 ]; then
  export LOCALSTRIPE_URL="${STRIPE_API_BASE:-https://api.stripe.com}"
  log "payments: real Stripe (test mode) at $LOCALSTRIPE_URL"
else
  start_localstripe 8420
fi
# With localstripe, start_server registers the server's webhook (POST /api/v1/webhooks/stripe) there
# under a fresh secret of this run. With real Stripe, set STRIPE_WEBHOOK_SECRET=whsec_… to the
# endpoint secret of your Stripe webhook (or of `stripe listen`); unset, the endpoint refuses events.
CIRRUS_DB="$RUN_DIR/dev.sqlite" start_server 8787 \
  CIRRUS_API_KEY="$CIRRUS_API_KEY" CIRRUS_WWW_DIR="$www_dir"

cat <<MSG

  Demo storefront:  http://127.0.0.1:8787/
  API base URL:     $CIRRUS_BASE_URL   (key: ${CIRRUS_API_KEY:0:7}…, in $key_file)
  Test cards:       4242 4242 4242 4242 pays; 4000 0027 6000 3184 asks for 3-D Secure;
                    4000 0000 0000 0341 is declined. Any future expiry, any CVC.
  Logs:             $RUN_DIR/server-8787.log, $RUN_DIR/localstripe-8420.log

  Ctrl-C stops everything.

MSG
wait_for_services
