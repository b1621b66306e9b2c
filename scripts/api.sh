#!/usr/bin/env bash
# The API for a storefront of your own (Vite, Next.js, …): localstripe (offline Stripe) with
# the dev server's webhook registered there, and the dev server (persistent database
# .cirrus/dev.sqlite, seeded on first start). Any loopback origin may call it from a browser
# (http://127.0.0.1:*, http://localhost:*; CIRRUS_CORS_ORIGINS=… for others). The API key is in
# the key file .cirrus/dev.sqlite.key (0600), made on the first start; it is never printed.
# Stays in the foreground; Ctrl-C stops both.
# Usage: scripts/api.sh    (CIRRUS_API_PORT=8787 CIRRUS_LOCALSTRIPE_PORT=8420 by default;
#        CIRRUS_FRONTEND_DOMAIN=localhost:3000: your storefront's domain, which the store's
#        canonical URLs and JSON-LD are made on). The first run installs what the API needs
#        only: localstripe in .venv and the dev server's build (no test tooling).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_localstripe
log "building the dev server"
build_server

api_port="${CIRRUS_API_PORT:-8787}" ls_port="${CIRRUS_LOCALSTRIPE_PORT:-8420}"
trap stop_services EXIT
trap 'echo; log "stopping"; exit 0' INT TERM
start_localstripe "$ls_port"
# start_server registers the server's webhook (POST /api/v1/webhooks/stripe) with that
# localstripe under a fresh secret of this run. The server keeps the key beside the database.
db="${CIRRUS_DB:-$RUN_DIR/dev.sqlite}"
CIRRUS_DB="$db" start_server "$api_port"
key_file="$db.key"

cat <<MSG

  API base URL:  $CIRRUS_BASE_URL
  API key:       in $key_file
                 (e.g. VITE_CIRRUS_API_KEY=\$(cat $key_file) in your frontend's .env.local)
  CORS:          $(sed -n 's/^  CORS     : //p' "$RUN_DIR/server-$api_port.log")
  Frontend:      $(sed -n 's/^  frontend : //p' "$RUN_DIR/server-$api_port.log")
  Payments:      localstripe at $LOCALSTRIPE_URL (its webhook registered); in the page:
                 new LocalstripeAdapter({ container, localstripeUrl: "$LOCALSTRIPE_URL" })
                 card 4242 4242 4242 4242, expiry month and a 2-digit year (12 / 34), any CVC;
                 3-D Secure 4000 0027 6000 3184, declined 4000 0000 0000 0341
  Logs:          $RUN_DIR/server-$api_port.log, $RUN_DIR/localstripe-$ls_port.log

  Ctrl-C stops everything.

MSG
wait_for_services
