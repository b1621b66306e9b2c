// expect: TS2367 '"not-found"'
// Error codes are a closed union: `not_found`.
import { CirrusError } from "cirrus-storefront";
export const missing = (e: unknown) => e instanceof CirrusError && e.code === "not-found";
