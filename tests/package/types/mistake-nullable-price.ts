// expect: TS2322 'null'
// `compareAtPrice` is `null` when the variant is not on sale.
import type { Variant } from "cirrus-storefront";
export const was = (v: Variant): string => v.compareAtPrice;
