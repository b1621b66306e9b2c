// expect: TS2345 'number' is not assignable to parameter of type 'MinorUnits'
// `Number("45")` is 45 dollars, not 45 cents: a decimal price becomes minor units through parseMoney.
// (Issue #27: it compiled and printed "$0.45".)
import { formatMoney, type Variant } from "cirrus-storefront";
export const label = (variant: Variant) => formatMoney(Number(variant.price), "USD");
