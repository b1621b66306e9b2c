#!/usr/bin/env bash
# Dev server: integration tests over real HTTP (in-process server on an ephemeral
# loopback port, in-memory SQLite) against a real localstripe, including the
# OpenAPI check (every documented response produced and validated); then
# schemathesis fuzzes the built binary against server/openapi.yaml (no 5xx,
# every status documented, every body matching its schema).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT
cd "$ROOT"
ensure_python_tools
start_localstripe $(P 18420)
export LOCALSTRIPE_URL
cargo test -p cirrus-dev-server --all-targets --no-fail-fast

build_server
key="$(new_api_key)"   # throwaway, this run only
start_server $(P 18787) CIRRUS_RATE_LIMIT=0 CIRRUS_API_KEY="$key"
log "schemathesis against $CIRRUS_BASE_URL"
"$ROOT/.venv/bin/st" run server/openapi.yaml --url "$CIRRUS_BASE_URL" \
  --header "Authorization: Bearer $key" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --seed 20 --max-examples 40 --request-timeout 10
