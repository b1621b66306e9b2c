#!/usr/bin/env bash
# The template in one command: the package built from this repository (scripts/build-pkg.sh,
# once; CIRRUS_REBUILD=1 builds it again), the dev API (scripts/api.sh: localstripe with its
# webhook + the dev server with a persistent, seeded database) and `next dev` on
# http://127.0.0.1:3000 (NEXT_PORT=… moves it; the store's frontendDomain, on which canonical
# URLs and JSON-LD are made, is set to it). Ctrl-C stops everything.
# With real Stripe test keys: STRIPE_API_BASE=https://api.stripe.com STRIPE_SECRET_KEY=sk_test_…
# STRIPE_PUBLISHABLE_KEY=pk_test_… ./dev.sh (the checkout then uses StripeAdapter).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
cd "$here"

if [ "${CIRRUS_REBUILD:-0}" = 1 ] || [ ! -f "$ROOT/pkg/package.json" ]; then
  log "building the package into pkg/"
  bash "$ROOT/scripts/build-pkg.sh" >/dev/null
fi
# .npmrc's install-links copies pkg/ into node_modules (a symlink would leave Next's root).
if [ "${CIRRUS_REBUILD:-0}" = 1 ] || [ ! -d node_modules/cirrus-storefront ]; then
  log "npm install in templates/next"
  npm install --no-audit --no-fund --loglevel=error
fi

api_port="${CIRRUS_API_PORT:-8787}" ls_port="${CIRRUS_LOCALSTRIPE_PORT:-8420}" next_port="${NEXT_PORT:-3000}"
api_log="$RUN_DIR/template-api.log"
(CIRRUS_API_PORT="$api_port" CIRRUS_LOCALSTRIPE_PORT="$ls_port" CIRRUS_FRONTEND_DOMAIN="127.0.0.1:$next_port" exec setsid bash "$ROOT/scripts/api.sh" >"$api_log" 2>&1) &
api_pid=$!
trap 'kill -- "-$api_pid" 2>/dev/null || true' EXIT
log "starting the dev API (log: ${api_log#"$ROOT"/})"
for _ in $(seq 1 3000); do
  grep -q "Ctrl-C stops everything" "$api_log" && break
  kill -0 "$api_pid" 2>/dev/null || { tail -20 "$api_log"; die "scripts/api.sh stopped"; }
  sleep 0.2
done
grep -q "Ctrl-C stops everything" "$api_log" || die "the dev API did not start (see $api_log)"

# The settings the server components read (lib/cirrus.ts); the key is read from its file, never printed.
export CIRRUS_BASE_URL="http://127.0.0.1:$api_port/api/v1"
CIRRUS_API_KEY=$(tr -d '[:space:]' <"${CIRRUS_DB:-$RUN_DIR/dev.sqlite}.key")
export CIRRUS_API_KEY NEXT_TELEMETRY_DISABLED=1
[ -n "${STRIPE_SECRET_KEY:-}" ] || export CIRRUS_LOCALSTRIPE_URL="http://127.0.0.1:$ls_port"
log "the storefront: http://127.0.0.1:$next_port/ (API $CIRRUS_BASE_URL)"
node_modules/.bin/next dev -p "$next_port" -H 127.0.0.1
