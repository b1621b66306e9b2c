// The one way to make `MinorUnits` from a plain integer (issue 27). Plain JS in the entry,
// no wasm and no init(): the brand is a type only, this checks what the wasm's money
// helpers would check of an amount (a safe integer, never rounded).
import type { MinorUnits } from "./cirrus_storefront.js";
import { cirrusError } from "./error.js";

/**
 * `n` integer minor units of a currency, typed as such: `minorUnits(1999)` is $19.99 in USD.
 * For an amount that is already minor units (a server's total, a stored number); a decimal
 * price string is parsed with `parseMoney("19.99", "USD")` instead.
 *
 * @throws CirrusError `invalid_argument` unless `n` is a safe integer (a decimal such as 5.99 is refused, not rounded).
 */
export function minorUnits(n: number): MinorUnits {
  if (!Number.isSafeInteger(n)) {
    throw cirrusError("invalid_argument", `minorUnits takes a whole number of minor units (1999 for $19.99), got ${typeof n === "number" ? String(n) : typeof n}: a decimal price string goes through parseMoney`);
  }
  return n as MinorUnits;
}
