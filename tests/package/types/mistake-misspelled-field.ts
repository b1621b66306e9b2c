// expect: TS2551 'metaTitel'
// A misspelled field of a product.
import type { Product } from "cirrus-storefront";
export const title = (p: Product): string | null => p.metaTitel;
