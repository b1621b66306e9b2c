// expect: TS2345 '"DOLLARS"' is not assignable to parameter of type 'CurrencyCode'
// expect: TS2345 'number' is not assignable to parameter of type 'MinorUnits'
// "DOLLARS" is no ISO 4217 code; and a plain 100 is not yet minor units (the line, second).
import { formatMoney, minorUnits } from "cirrus-storefront";
export const a = () => formatMoney(minorUnits(100), "DOLLARS");
export const b = () => formatMoney(100, "DOLLARS");
