#!/usr/bin/env bash
# Native tests of the pure Rust core (no I/O): models, money, cart, shipping,
# checkout state machine, request building, decoding, retry policy.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
cargo test -p cirrus-storefront --all-targets -- --skip checkout_simulation
# The search core (src/search/, issue 42) is behind the feature `search`, not in `default`: its
# unit, property (facet counts against a brute-force count) and index-reader fuzz tests.
cargo test -p cirrus-storefront --lib --features search search
# The generated files (js/generated/, src/generated/schema.rs) against the Rust types: the
# type generator's tests (tools/typegen/), its drift check among them. It only checks;
# `cargo run -p cirrus-typegen` rewrites them.
cargo test -p cirrus-typegen
# The checkout simulation (src/checkout/tests/sim/, issue 31) on its own, so its one line
# ("checkout simulation: N schedules, M steps, K violations") is in the stage's output.
cargo test -p cirrus-storefront --lib checkout_simulation -- --nocapture
# No doc that describes the house names a file that does not exist (docs/history.md exempt).
bash scripts/check-docs.sh
# No import circle, no module-level allow, no source file over 500 lines doing two jobs.
bash scripts/check-structure.sh
# vendor/serde-wasm-bindgen is the published crate + its patch, and still the newest "0.6"
# on crates.io (vendor/README.md; needs the crates.io registry).
bash scripts/check-vendor.sh
