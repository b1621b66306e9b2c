// expect: TS2345 'string'
// A variant's price is a decimal string; formatMoney takes integer minor units (parseMoney first).
import { formatMoney, type Variant } from "cirrus-storefront";
export const label = (v: Variant) => formatMoney(v.price, "USD");
