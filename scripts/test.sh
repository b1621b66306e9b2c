#!/usr/bin/env bash
# Sets up whatever is missing (idempotent), then runs every test stage in
# scripts/test.d/ in order. Each stage starts the services it needs (a fresh
# localstripe, a fresh dev server) and stops them when it ends.
#   scripts/test.sh            every stage
#   scripts/test.sh wasm pkg   only stages whose file name contains one of the words
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_wasm_toolchain
ensure_chromium
ensure_firefox
ensure_webkit
ensure_python_tools
ensure_node_modules

# Every API key of this run (this one and the ones stages make with new_api_key) is listed
# in a 0600 file outside the repo; after each stage, check_no_secrets fails the stage if one
# appears in its output (captured below) or in any file under .cirrus/.
secrets_dir=$(mktemp -d)
trap 'rm -rf "$secrets_dir"' EXIT
export CIRRUS_SECRETS_FILE="$secrets_dir/keys"
: >"$CIRRUS_SECRETS_FILE"; chmod 600 "$CIRRUS_SECRETS_FILE"

# A fresh, obviously-test API key for this run (ak_ + 48 hex); never committed.
CIRRUS_API_KEY="$(new_api_key)"
export CIRRUS_API_KEY

passed=0; failed=0; failures=()
start=$SECONDS
for stage in "$ROOT"/scripts/test.d/*.sh; do
  name=$(basename "$stage" .sh)
  if [ $# -gt 0 ]; then
    keep=0; for w in "$@"; do [[ $name == *"$w"* ]] && keep=1; done
    [ $keep -eq 1 ] || continue
  fi
  log "== stage $name"
  t0=$SECONDS
  out="$secrets_dir/$name.out"
  ok=1
  bash "$stage" 2>&1 | tee "$out" || ok=0
  check_no_secrets "$out" || ok=0   # also after a failed stage: a leak is reported either way
  if [ $ok -eq 1 ]; then
    passed=$((passed + 1)); log "== stage $name passed in $((SECONDS - t0)) s"
  else
    failed=$((failed + 1)); failures+=("$name"); log "== stage $name FAILED in $((SECONDS - t0)) s"
  fi
done
log "all stages done in $((SECONDS - start)) s"
[ $failed -gt 0 ] && log "failed stages: ${failures[*]}"
echo "stages: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
