#!/usr/bin/env bash
# Native tests of the pure Rust core (no I/O): models, money, cart, shipping,
# checkout state machine, request building, decoding, retry policy.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
# This stage checks the generated files (tests/sdk/typegen.rs, tests/cart/types.rs): with
# CIRRUS_BLESS set those tests rewrite the files instead of failing, so an exported
# CIRRUS_BLESS must never reach them here. Bless by hand: CIRRUS_BLESS=1 cargo test --test typegen
unset CIRRUS_BLESS
cargo test -p cirrus-storefront --all-targets
