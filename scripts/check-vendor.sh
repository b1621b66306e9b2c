#!/usr/bin/env bash
# vendor/serde-wasm-bindgen is the published crate plus vendor/serde-wasm-bindgen.patch, and
# nothing else (vendor/README.md says why it exists). Fails when:
#   - the vendored copy differs from the registry's source of its version with the patch applied;
#   - the requirement in Cargo.toml ("0.6") now resolves to another version on crates.io
#     (upstream moved: update the copy, vendor/README.md says how);
#   - Cargo.lock does not take the crate from vendor/ (the [patch.crates-io] entry unused).
# Needs the crates.io registry (reachable here), nothing else. Run by stage 10-core.
# Usage: scripts/check-vendor.sh           check
#        scripts/check-vendor.sh --write   rewrite vendor/serde-wasm-bindgen.patch from the
#                                          vendored copy (after editing it), then check
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
apt_install patch   # applies the patch below (Debian priority "optional": not on every machine)
CRATE=serde-wasm-bindgen
DIR="vendor/$CRATE"
PATCH="vendor/$CRATE.patch"
FILES=(Cargo.toml LICENSE README.md src)   # what is vendored of the published crate

req=$(sed -n "s/^$CRATE = \"\([^\"]*\)\"/\1/p" Cargo.toml)
[ -n "$req" ] || die "check-vendor: no \`$CRATE = \"…\"\` line in Cargo.toml"
vendored=$(sed -n 's/^version = "\(.*\)"/\1/p' "$DIR/Cargo.toml" | head -1)

# The crate is built from vendor/: its Cargo.lock entry has no registry source.
awk -v n="$CRATE" '$0 == "name = \"" n "\"" { getline; v = $0; getline; if ($0 ~ /^source/) bad = 1; found = 1 }
  END { exit !(found && !bad) }' Cargo.lock \
  || die "check-vendor: Cargo.lock takes $CRATE from the registry, not from $DIR ([patch.crates-io] in Cargo.toml unused?)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A throwaway crate asking for "$req" as ours does: cargo resolves it against the crates.io
# index (newest matching version), downloads and unpacks it; `cargo metadata` says where.
mkdir -p "$tmp/probe/src"
: >"$tmp/probe/src/lib.rs"
printf '[package]\nname = "vendor-probe"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n%s = "%s"\n\n[workspace]\n' \
  "$CRATE" "$req" >"$tmp/probe/Cargo.toml"
cargo metadata -q --format-version 1 --manifest-path "$tmp/probe/Cargo.toml" >"$tmp/metadata.json" \
  || die "check-vendor: cargo could not resolve $CRATE \"$req\" (is the crates.io registry reachable?)"
read -r newest manifest < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
p = [p for p in m["packages"] if p["name"] == sys.argv[2]][0]
print(p["version"], p["manifest_path"])' "$tmp/metadata.json" "$CRATE")
[ "$newest" = "$vendored" ] \
  || die "check-vendor: $CRATE \"$req\" now resolves to $newest on crates.io, $DIR is $vendored: upstream moved, update the copy (vendor/README.md)"

# Pristine source + the patch = the vendored copy, file for file.
pristine=$(dirname "$manifest")
mkdir -p "$tmp/a"
for f in "${FILES[@]}"; do cp -r "$pristine/$f" "$tmp/a/"; done
if [ "${1:-}" = --write ]; then
  mkdir -p "$tmp/b" && cp -r "$DIR/." "$tmp/b/"
  # Unified diff pristine (a/) -> ours (b/), file timestamps dropped (patch -p1 applies it).
  (cd "$tmp" && diff -ruN a b || true) | sed -E 's/^((---|\+\+\+) [^\t]*)\t.*$/\1/' >"$PATCH"
  log "check-vendor: wrote $PATCH"
fi
patch -s -p1 --fuzz=0 --no-backup-if-mismatch -d "$tmp/a" <"$PATCH" \
  || die "check-vendor: $PATCH does not apply to $CRATE $vendored from the registry"
diff -r "$tmp/a" "$DIR" >&2 \
  || die "check-vendor: $DIR is not $CRATE $vendored from the registry + $PATCH (differences above)"
log "check-vendor: $DIR = $CRATE $vendored (newest for \"$req\") + $PATCH"
