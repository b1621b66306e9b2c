#!/usr/bin/env bash
# Dev server: integration tests over real HTTP (in-process server on an ephemeral
# loopback port, in-memory SQLite) against a real localstripe, then the OpenAPI
# document checked against the live responses of the built binary.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
trap stop_services EXIT
cd "$ROOT"
ensure_python_tools
start_localstripe 18420
export LOCALSTRIPE_URL
cargo test -p cirrus-dev-server --all-targets --no-fail-fast
