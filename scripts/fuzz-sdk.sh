#!/usr/bin/env bash
# Fuzzes the SDK's parsers (issue 12 item 11) on the stable toolchain, with many cases:
#   - stored checkout states: arbitrary JSON and mutated stored states never panic, and
#     what is read back is stored again unchanged (src/checkout/tests/stored.rs, `fuzz`);
#   - money: format/parse round trips, arbitrary strings never panic (src/money.rs, `props`);
#   - the client's baseUrl check against node's WHATWG URL parser
#     (tests/sdk/fuzz-base-url.mjs, on a package built here).
# The test stages run the same targets with modest counts (10-core: 2,000 per property;
# 40-pkg: 5,000 URLs).
#   scripts/fuzz-sdk.sh            1,000,000 cases per target
#   scripts/fuzz-sdk.sh 50000      that many
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
ensure_node_modules
export CIRRUS_FUZZ_CASES="${1:-${CIRRUS_FUZZ_CASES:-1000000}}"
log "stored checkout states and money: $CIRRUS_FUZZ_CASES cases per property"
t0=$SECONDS
cargo test -q -p cirrus-storefront --profile server --lib -- checkout::tests::stored::fuzz money::props
log "done in $((SECONDS - t0)) s"
OUT="$ROOT/target/fuzz-sdk/pkg"
CIRRUS_PKG_OUT="$OUT" bash scripts/build-pkg.sh >/dev/null
t0=$SECONDS
node tests/sdk/fuzz-base-url.mjs "$OUT"
log "done in $((SECONDS - t0)) s"
