#!/usr/bin/env bash
# Mutation testing of the checkout and the cart (issue 41): cargo-mutants 27.1.0 (installed with
# `cargo install --locked` only when missing) mutates src/checkout/ and src/cart/ (their test
# modules, src/checkout/tests/, src/cart/tests.rs and src/cart/props.rs, excluded) and runs the
# crate's native lib tests, the checkout simulation among them, against each mutant.
# Figures and what the last run left missed: BENCHMARKS.md "Mutation testing".
# Cost: about 500 mutants, each an incremental build (~7 s idle) and the lib tests (~10-20 s with the
# simulation at CIRRUS_SIM_SCHEDULES=3000, the default here): 2-3 hours on 2 idle cores, more
# under load (~45 s a mutant at load 20 with CIRRUS_MUTANTS_FILTER=checkout). Rerun one file, or a few mutants, by passing cargo-mutants' own arguments through:
#   scripts/mutants.sh --file src/cart/paid.rs
#   scripts/mutants.sh --file src/checkout/protocol/pay.rs --re 'replace < with'
# It works on a copy of the tree (cargo-mutants' default; pass --in-place to mutate this tree
# itself and reuse its target/, faster, but the tree must not be edited while it runs).
# Output: target/mutants/mutants.out/ (outcomes.json, caught.txt, missed.txt, timeout.txt,
# unviable.txt); CIRRUS_MUTANTS_OUT=DIR writes elsewhere. A mutant whose tests run over 30 s
# (CIRRUS_MUTANTS_TIMEOUT; the unmutated lib tests take ~9 s idle, ~45 s at load 15) is a timeout
# (a loop it made endless, or a slow mutant: rerun those with a longer timeout).
# Built with the cargo profile `mutate` (Cargo.toml: the test profile without debug info; its
# first build is a cold one, into target/mutate/), with RUST_BACKTRACE=0 (a caught mutant fails
# many tests: no backtraces to resolve). CIRRUS_MUTANTS_FILTER=NAME passes a test-name filter
# after `--lib` (e.g. `checkout` for src/checkout/: the modules whose tests reach the file);
# a mutant missed under a filter must be rerun without it before it counts as missed.
# `--cargo-arg=--lib` builds and runs the lib's tests only: without it each mutant's build
# (`cargo test --no-run`) also compiles the crate's cdylib/rlib, two compiles of the crate a mutant.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
MUTANTS_VERSION="27.1.0"
if [ "$(cargo mutants --version 2>/dev/null)" != "cargo-mutants $MUTANTS_VERSION" ]; then
  log "cargo install cargo-mutants $MUTANTS_VERSION (a few minutes, once)"
  cargo install cargo-mutants --version "$MUTANTS_VERSION" --locked
fi
export CIRRUS_SIM_SCHEDULES="${CIRRUS_SIM_SCHEDULES:-3000}"
OUT="${CIRRUS_MUTANTS_OUT:-$ROOT/target/mutants}"
mkdir -p "$OUT"
# cargo-mutants takes the union of its --file filters: a --file passed in replaces ours.
FILES=(--file 'src/checkout/**' --file 'src/cart/**')
for a in "$@"; do case "$a" in -f|--file|--file=*) FILES=() ;; esac; done
export RUST_BACKTRACE=0
FILTER=()
if [ -n "${CIRRUS_MUTANTS_FILTER:-}" ]; then FILTER=("$CIRRUS_MUTANTS_FILTER"); fi
exec cargo mutants -p cirrus-storefront "${FILES[@]}" \
  --exclude 'src/checkout/tests/**' --exclude src/cart/tests.rs --exclude src/cart/props.rs \
  --profile mutate --timeout "${CIRRUS_MUTANTS_TIMEOUT:-30}" --build-timeout 300 --output "$OUT" \
  --cargo-arg=--lib "$@" -- "${FILTER[@]}"
