#!/usr/bin/env bash
# Native tests of the pure Rust core (no I/O): models, money, cart, shipping,
# checkout state machine, request building, decoding, retry policy.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
cargo test -p cirrus-storefront --all-targets
