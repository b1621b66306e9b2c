#!/usr/bin/env bash
# Until cirrus-storefront is on the npm registry: builds the package (scripts/build-pkg.sh) and
# packs it into dist/cirrus-storefront-<version>.tgz, the file `npm publish` would upload, then
# prints the `npm install` line for a project of your own. Stage 40-pkg runs
# `npm publish --dry-run` on the same tarball.
# Usage: scripts/pack.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
out="$ROOT/target/pack/pkg"
CIRRUS_PKG_OUT="$out" bash scripts/build-pkg.sh
mkdir -p "$ROOT/dist"
rm -f "$ROOT"/dist/cirrus-storefront-*.tgz
tgz=$(cd "$out" && npm pack --silent --pack-destination "$ROOT/dist" | tail -1)
log "packed dist/$tgz ($(wc -c <"$ROOT/dist/$tgz") bytes)"
cat <<MSG

  In your project:

    npm install $ROOT/dist/$tgz

  (what \`npm install cirrus-storefront\` will give once the package is published)

MSG
