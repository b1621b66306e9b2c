#!/usr/bin/env bash
# Fuzzes the dev server's query-string parser against form_urlencoded (the WHATWG
# parser of the url crate): server/tests/fuzz_query.rs, a proptest target on the
# stable toolchain. Stage 20 runs the same target with 10,000 cases.
#   scripts/fuzz-server.sh            1,000,000 cases (optimized build)
#   scripts/fuzz-server.sh 5000000    that many
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
export CIRRUS_FUZZ_CASES="${1:-${CIRRUS_FUZZ_CASES:-1000000}}"
log "fuzz_query: $CIRRUS_FUZZ_CASES cases"
cargo test -q -p cirrus-dev-server --profile server --test fuzz_query -- --nocapture
