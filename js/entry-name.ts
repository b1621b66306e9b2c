// The package specifier of the entry compiled from this directory, for messages (js/host.ts).
// scripts/build-pkg.sh compiles the `cirrus-storefront/client` subpath with its own copy.
export const ENTRY = "cirrus-storefront";
